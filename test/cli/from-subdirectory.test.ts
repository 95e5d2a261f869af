import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli';
import { withoutGatewayHa } from '../helpers/gateway-ha';
import { removeTree } from '../helpers/remove-tree';

// Run from a subdirectory of a user's repository, every command that reads definitions by default
// reads the repository's clustersets/, as synth does (findDefinitionsDir). The CLI runs in process
// from that directory (a worker of forks may change its own); the bin as a process is
// test/cli/cli.test.ts's and the package test's.
const GUIDE = resolve('test/fixtures/live/user-guide');
let repo: string;
let sub: string;
const git = (...args: string[]) => execFileSync('git', ['-c', 'user.email=t@example.com', '-c', 'user.name=t', ...args], { cwd: repo, stdio: 'pipe' });
const cli = (cwd: string, args: readonly string[]) => runCli(args, { cwd });

beforeAll(async () => {
  repo = mkdtempSync(join(tmpdir(), 'subdir-repo-'));
  mkdirSync(join(repo, 'clustersets'));
  cpSync('clustersets/demo-clusterset.yaml', join(repo, 'clustersets/demo-clusterset.yaml'));
  // the user guide's running ClusterSet, imported, so that `plan --live` has a definition to compare
  const imported = await cli(repo, ['import', GUIDE, '--token-source', 'manual']);
  writeFileSync(join(repo, 'clustersets/test-clusterset.yaml'), imported.stdout.replaceAll('delivery: <unset>', 'delivery: {}'));
  git('init', '-q', '-b', 'main');
  git('add', '.');
  git('commit', '-qm', 'base');
  const file = join(repo, 'clustersets/demo-clusterset.yaml');
  writeFileSync(
    file,
    readFileSync(file, 'utf8').replace('        - node: cl2-node1\n', '        - node: cl2-node2\n        - { node: cl2-node1, retired: true }\n'),
  );
  git('commit', '-qam', 'move the Gateway of member2');
  sub = join(repo, 'docs', 'notes');
  mkdirSync(sub, { recursive: true });
  // status --from checks the ClusterSets of the clusters saved: one cluster of each, with no objects
  mkdirSync(join(repo, 'saved'));
  for (const id of ['demo-cluster-leader', 'test-cluster-north']) writeFileSync(join(repo, 'saved', `${id}.yaml`), 'apiVersion: v1\nkind: List\nitems: []\n');
});
afterAll(() => removeTree(repo));

/** Each command that reads definitions when no path is given, and what shows it read both. */
const READS_DEFINITIONS: readonly { command: string; args: readonly string[]; code: number; stdout: RegExp }[] = [
  { command: 'validate', args: [], code: 0, stdout: /^2 definitions valid\n$/ },
  { command: 'synth', args: ['--check'], code: 1, stdout: /^$/ }, // no dist/ yet: stale, named below
  { command: 'plan', args: ['--base', 'HEAD~1'], code: 0, stdout: /\[disruptive\] Gateway of demo-cluster-member2 moves from cl2-node1 to cl2-node2/ },
  { command: 'plan', args: ['--live', GUIDE], code: 0, stdout: /3 changes: 0 destructive, 0 disruptive, 3 rollout/ },
  // the running clusters of the user guide: test-clusterset compared, demo-clusterset's clusters unreadable (exit 1)
  {
    command: 'drift',
    args: ['--live', GUIDE],
    code: 1,
    stdout: /^demo-clusterset  demo-cluster-leader  could not be read\n[^]*test-clusterset  test-cluster-north  drifts\n/,
  },
  {
    command: 'connections',
    args: [
      '--inventory',
      resolve('examples/inventory/test-clusterset.yaml'),
      '--from',
      'test-cluster-east/shop/web',
      '--to',
      'test-cluster-east/shop/web',
      '--port',
      'TCP/80',
    ],
    code: 0,
    stdout: /^test-cluster-east\/shop\/web → test-cluster-east\/shop\/web TCP\/80: /,
  },
  // no objects saved: every check fails, but on the clusters of both definitions
  { command: 'status', args: ['--from', '../../saved'], code: 1, stdout: /demo-clusterset {2}demo-cluster-leader[^]*test-clusterset {2}test-cluster-north/ },
];
/** Commands that read no definition: nothing to find. */
const READS_NO_DEFINITION = ['import', 'schema', 'init', 'help'];

describe('from a subdirectory of the repository', () => {
  it.each(READS_DEFINITIONS)("$command $args reads the repository's clustersets/", async ({ args, command, code, stdout }) => {
    const r = await cli(sub, [command, ...args]);
    expect(r.stderr).not.toContain('cannot read');
    expect(r.stdout).toMatch(stdout);
    expect(r.status).toBe(code);
  });

  it('the table covers every command of the CLI', async () => {
    const help = (await cli(sub, ['--help'])).stdout;
    const commands = [...help.slice(help.indexOf('commands:\n'), help.indexOf('\n\noptions:')).matchAll(/^ {2}(\S+)/gm)].map((m) => m[1]);
    expect(new Set(commands)).toEqual(new Set([...READS_DEFINITIONS.map((r) => r.command), ...READS_NO_DEFINITION]));
  });

  it("synth writes the repository's dist/ beside its clustersets/, and --check compares it", async () => {
    const synth = (...args: string[]) => cli(sub, ['synth', ...args]);
    const r = await synth('-q');
    expect([r.status, withoutGatewayHa(r.stderr)]).toEqual([0, '']);
    expect(readdirSync(join(repo, 'dist'))).toEqual(expect.arrayContaining(['demo-clusterset', 'test-clusterset']));
    expect(readdirSync(sub)).toEqual([]);
    expect((await synth('--check')).status).toBe(0);
  });
});
