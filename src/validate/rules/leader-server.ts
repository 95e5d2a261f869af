import type { ModelRule } from '../rule';

export const leaderServer: ModelRule = {
  id: 'leader-server',
  severity: 'error',
  description: 'spec.leader.server is not an https:// URL with a host',
  check({ definition, report }) {
    const server = definition.spec.leader.server;
    const problem = serverProblem(server);
    if (!problem) return;
    report({
      path: ['spec', 'leader', 'server'],
      message: `leader server "${server}" ${problem}`,
      hint: 'write the leader API server URL as members reach it, e.g. "https://192.168.150.101:6443"',
    });
  },
};

function serverProblem(server: string): string | undefined {
  let url: URL;
  try {
    url = new URL(server);
  } catch {
    return 'is not a URL';
  }
  if (url.protocol !== 'https:') return `uses "${url.protocol.replace(/:$/, '')}" instead of "https"`;
  // the WHATWG parser forgives "https:host" and "https:///host"; a member's client does not
  if (!/^https:\/\/[^/]/i.test(server) || url.hostname === '') return 'has no host';
  return undefined;
}
