import { isIP } from 'node:net';
import { printable } from '../../diagnostics/printable';
import type { ModelRule } from '../rule';
import { URL_TEXT } from '../kube-names';

export const leaderServer: ModelRule = {
  id: 'leader-server',
  severity: 'error',
  description: 'spec.leader.server is not an https:// URL with a host',
  validate({ definition, report }) {
    const server = definition.spec.leader.server;
    const problem = serverProblem(server);
    if (!problem) return;
    report({
      path: ['spec', 'leader', 'server'],
      message: `leader server "${printable(redactUserinfo(server))}" ${problem}`,
      hint: 'write the leader API server URL as members reach it, e.g. "https://192.168.150.101:6443"; its host must be one the leader API server certificate covers (members trust only the leader cluster CA)',
    });
  },
};

/** The URL with any user and password written over: a message reaches CI logs. */
const redactUserinfo = (server: string): string => server.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/?#@]*@/i, '$1<redacted>@');

function serverProblem(server: string): string | undefined {
  // checked on the text: the WHATWG parser drops tabs and newlines anywhere and takes the rest into a path
  if (!URL_TEXT.test(server)) return 'holds a character a URL never carries unencoded (RFC 3986: no spaces, quotes, control or non-ASCII characters)';
  let url: URL;
  try {
    url = new URL(server);
  } catch {
    return 'is not a URL';
  }
  if (url.protocol !== 'https:') return `uses "${url.protocol.replace(/:$/, '')}" instead of "https"`;
  // the WHATWG parser forgives "https:host" and "https:///host"; a member's client does not
  if (!/^https:\/\/[^/]/i.test(server) || url.hostname === '') return 'has no host';
  // members put the URL into a client config whose only credential is the token Secret
  if (url.username !== '' || url.password !== '') return 'holds credentials';
  if (url.search !== '' || url.hash !== '' || /[?#]/.test(server)) return 'has a query or fragment, which a Kubernetes client does not accept in its host';
  // the leader's serving certificate must name this host (members trust only the leader's CA):
  // a DNS name or an IP address, never a wildcard or a name with characters DNS does not allow
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (!isIP(host) && !/^(?=.{1,253}$)([a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?)(\.[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?)*\.?$/i.test(decodeURIComponent(host))) {
    return `names host "${decodeURIComponent(host)}", which is neither an IP address nor a DNS name a certificate can cover`;
  }
  return undefined;
}
