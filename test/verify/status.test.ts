import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { main } from '../../src/cli/main';
import { runCli } from '../helpers/run-cli';

const DEFINITION = join(import.meta.dirname, '../fixtures/verify/definition.yaml');
const tmp = mkdtempSync(join(process.env.CLUSTERSET_TEST_TMPDIR ?? tmpdir(), 'status-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const cond = (type: string, status: string) => ({ type, status });
const list = (...items: object[]) => stringify({ apiVersion: 'v1', kind: 'List', items });
const member = (ready: string) => ({
  apiVersion: 'multicluster.crd.antrea.io/v1alpha2',
  kind: 'ClusterSet',
  metadata: { name: 'verify-clusterset', namespace: 'kube-system' },
  spec: { leaders: [{ clusterID: 'north', server: 'https://172.18.0.10:6443' }] },
  status: { conditions: [cond('Ready', ready)], clusterStatuses: [{ clusterID: 'north', conditions: [cond('Ready', ready), cond('IsLeader', 'True')] }] },
});
const leader = {
  apiVersion: 'multicluster.crd.antrea.io/v1alpha2',
  kind: 'ClusterSet',
  metadata: { name: 'verify-clusterset', namespace: 'antrea-multicluster' },
  spec: { leaders: [{ clusterID: 'north' }] },
  status: {
    conditions: [cond('Ready', 'True')],
    clusterStatuses: ['north', 'east', 'west'].map((clusterID) => ({ clusterID, conditions: [cond('Ready', 'True')] })),
  },
};
const IPS: Record<string, string> = { north: '10.0.1.1', east: '10.0.2.1', west: '10.0.3.1' };
const gateway = (name: string, ip = IPS[name.split('-')[0]!]!) => ({
  apiVersion: 'multicluster.crd.antrea.io/v1alpha1',
  kind: 'Gateway',
  metadata: { name, namespace: 'kube-system' },
  gatewayIP: ip,
});
const node = (name: string, ready = 'True') => ({ apiVersion: 'v1', kind: 'Node', metadata: { name }, status: { conditions: [cond('Ready', ready)] } });
/** what a member imported of another member's ClusterInfo (member/clusterinfo_importer.go) */
const clusterInfo = (of: string, ip = IPS[of]!) => ({
  apiVersion: 'multicluster.crd.antrea.io/v1alpha1',
  kind: 'ClusterInfoImport',
  metadata: { name: `${of}-clusterinfo`, namespace: 'kube-system' },
  spec: { clusterID: of, gatewayInfos: [{ gatewayIP: ip }] },
});
const knows = (self: string) =>
  Object.keys(IPS)
    .filter((id) => id !== self)
    .map((id) => clusterInfo(id));
const imported = (namespace: string, name: string) => ({ apiVersion: 'multicluster.x-k8s.io/v1alpha1', kind: 'ServiceImport', metadata: { name, namespace } });

const HEALTHY = {
  north: list(leader, member('True'), gateway('north-node-1'), node('north-node-1'), ...knows('north'), imported('demo', 'nginx'), imported('shop', 'api')),
  east: list(
    member('True'),
    gateway('east-node-1'),
    node('east-node-1'),
    node('east-node-2'),
    ...knows('east'),
    imported('demo', 'nginx'),
    imported('shop', 'api'),
  ),
  west: list(member('True'), gateway('west-node-1'), node('west-node-1'), ...knows('west'), imported('demo', 'nginx'), imported('shop', 'api')),
};

function saved(name: string, files: Record<string, string>): string {
  const dir = join(tmp, name);
  mkdirSync(dir, { recursive: true });
  for (const [id, text] of Object.entries(files)) writeFileSync(join(dir, `${id}.yaml`), text);
  return dir;
}

async function run(...argv: string[]) {
  let stdout = '';
  let stderr = '';
  const code = await main(['status', DEFINITION, ...argv], {
    stdout: { write: (s: string) => (stdout += s) },
    stderr: { write: (s: string) => (stderr += s) },
    env: {},
  });
  return { code, stdout, stderr };
}

describe('clusterset status', () => {
  it('exit 0 and one line per cluster and check when every check passes', async () => {
    const { code, stdout } = await run('--from', saved('healthy', HEALTHY));
    expect(code).toBe(0);
    const lines = stdout.trim().split('\n');
    expect(lines).toHaveLength(26);
    expect(lines[0]).toMatch(/^verify-clusterset {2}north {2}members-connected +ClusterSet verify-clusterset +ok +3 of 3 members connected$/);
    expect(lines.at(-1)).toBe('all 25 checks pass');
  });

  it('exit 1 naming what fails; a cluster without saved output fails every check', async () => {
    const { code, stdout } = await run('--from', saved('broken', { ...HEALTHY, east: list(member('False')) }), '--format', 'json');
    expect(code).toBe(1);
    const report = JSON.parse(stdout) as {
      healthy: boolean;
      clusterSets: { clusters: { clusterID: string; checks: { check: string; ok: boolean; message: string }[] }[] }[];
    };
    expect(report.healthy).toBe(false);
    const east = report.clusterSets[0]!.clusters.find((c) => c.clusterID === 'east')!;
    expect(east.checks.map((c) => [c.check, c.ok, c.message])).toEqual([
      ['clusterset-connected', false, 'disconnected from leader north: '],
      ['gateway-elected', false, 'no Gateway elected among east-node-1, east-node-2'],
      ['gateway-candidates', false, 'no Gateway among east-node-1, east-node-2; not Ready: east-node-1, east-node-2'],
      ['gateway-known', false, 'no active Gateway in east'],
      ['clusterinfo-imported', false, 'ClusterInfo of north is not imported (no ClusterInfoImport north-clusterinfo)'],
      ['clusterinfo-imported', false, 'ClusterInfo of west is not imported (no ClusterInfoImport west-clusterinfo)'],
      ['service-imported', false, 'Service demo/nginx, exported by every member, is not imported here'],
      ['service-imported', false, 'Service shop/api, exported by east, is not imported here'],
    ]);
    const missing = await run('--from', saved('partial', { north: HEALTHY.north }));
    expect(missing.code).toBe(1);
    expect(missing.stdout).toContain('west   clusterset-connected  ClusterSet verify-clusterset  FAIL  no saved objects:');
  });

  // #40 item 5: each failing check says where to look (docs/verify.md, "Reading a failure")
  it('each failing check carries its hint, in the text under its line and in the JSON; passing ones none', async () => {
    const broken = saved('hinted', { ...HEALTHY, east: list(member('False')) });
    const text = await run('--from', broken);
    const lines = text.stdout.trim().split('\n');
    const fails = lines.map((l, i) => [l, i] as const).filter(([l]) => / FAIL /.test(l));
    // east's four, its two Gateway checks and its two imports of the others' ClusterInfo (#51), and north and west no longer learning east's Gateway IP from it
    expect(fails.length).toBe(10);
    for (const [, i] of fails) expect(lines[i + 1]).toMatch(/^ {2}hint: \S/);
    expect(lines.filter((l) => l.startsWith('  hint: '))).toHaveLength(10);
    const connected = lines[fails.find(([l]) => l.includes('clusterset-connected'))![1] + 1]!;
    expect(connected).toContain('kube-system/east-leader-token');
    expect(connected).toContain('dist/verify-clusterset/README.md');
    const json = JSON.parse((await run('--from', broken, '--format', 'json')).stdout) as {
      clusterSets: { clusters: { checks: { ok: boolean; hint?: string }[] }[] }[];
    };
    const checks = json.clusterSets[0]!.clusters.flatMap((c) => c.checks);
    expect(checks.filter((c) => !c.ok).every((c) => typeof c.hint === 'string' && c.hint.length > 0)).toBe(true);
    expect(checks.filter((c) => c.ok).some((c) => 'hint' in c)).toBe(false);
  });

  // #51: the active Gateway per member, the candidates that are not Ready, and what the others tunnel to
  it.each([
    [
      'healthy',
      {},
      [
        'east gateway-candidates ok active east-node-1 (gatewayIP 10.0.2.1); every candidate Ready',
        'east gateway-known ok every other member tunnels to 10.0.2.1',
      ],
    ],
    [
      'the standby not Ready',
      { east: list(member('True'), gateway('east-node-1'), node('east-node-1'), node('east-node-2', 'False'), ...knows('east')) },
      [
        'east gateway-candidates ok active east-node-1 (gatewayIP 10.0.2.1); not Ready: east-node-2',
        'east gateway-known ok every other member tunnels to 10.0.2.1',
      ],
    ],
    [
      'after a failover west has not learnt the new IP yet',
      {
        east: list(member('True'), gateway('east-node-2', '10.0.2.2'), node('east-node-1', 'False'), node('east-node-2'), ...knows('east')),
        north: list(leader, member('True'), gateway('north-node-1'), node('north-node-1'), clusterInfo('east', '10.0.2.2'), clusterInfo('west')),
      },
      [
        'east gateway-candidates ok active east-node-2 (gatewayIP 10.0.2.2); not Ready: east-node-1',
        'east gateway-known FAIL not tunnelling to 10.0.2.2: west (10.0.2.1)',
      ],
    ],
    [
      'two Gateways',
      { east: list(member('True'), gateway('east-node-1'), gateway('east-node-2'), node('east-node-1'), node('east-node-2'), ...knows('east')) },
      [
        'east gateway-candidates FAIL 2 Gateways (east-node-1, east-node-2): Antrea keeps one; every candidate Ready',
        'east gateway-known ok every other member tunnels to 10.0.2.1',
      ],
    ],
    [
      'a Gateway on a Node the definition does not list',
      { east: list(member('True'), gateway('east-node-9'), node('east-node-1'), node('east-node-2'), ...knows('east')) },
      [
        'east gateway-candidates FAIL Gateway east-node-9 is not a declared candidate (east-node-1, east-node-2); every candidate Ready',
        'east gateway-known ok every other member tunnels to 10.0.2.1',
      ],
    ],
  ])('the Gateway checks: %s', async (name, changed, expected) => {
    const { stdout } = await run('--from', saved(`gateways-${name.replace(/\W+/g, '-')}`, { ...HEALTHY, ...changed }), '--format', 'json');
    const report = JSON.parse(stdout) as { clusterSets: { clusters: { clusterID: string; checks: { check: string; ok: boolean; message: string }[] }[] }[] };
    const east = report.clusterSets[0]!.clusters.find((c) => c.clusterID === 'east')!;
    expect(
      east.checks
        .filter((c) => c.check.startsWith('gateway-') && c.check !== 'gateway-elected')
        .map((c) => `east ${c.check} ${c.ok ? 'ok' : 'FAIL'} ${c.message}`),
    ).toEqual(expected);
  });

  // a missing dump is one reason for every check of that cluster; the checks' hints (tokens,
  // Gateways) are about a cluster that was read (#49 item 12)
  it('a cluster without saved output: its checks fail with the reason and no hint', async () => {
    const text = await run('--from', saved('no-west', { north: HEALTHY.north, east: HEALTHY.east }));
    const lines = text.stdout.trim().split('\n');
    const west = lines.map((l, i) => [l, i] as const).filter(([l]) => /^verify-clusterset {2}west /.test(l));
    expect(west.length).toBeGreaterThan(0);
    for (const [l, i] of west) {
      expect(l).toContain('FAIL  no saved objects:');
      expect(lines[i + 1]).not.toMatch(/^ {2}hint: /);
    }
    const json = JSON.parse((await run('--from', saved('no-west', {}), '--format', 'json')).stdout) as {
      clusterSets: { clusters: { clusterID: string; checks: { ok: boolean; hint?: string }[] }[] }[];
    };
    const westChecks = json.clusterSets[0]!.clusters.find((c) => c.clusterID === 'west')!.checks;
    expect(westChecks.every((c) => !c.ok && !('hint' in c))).toBe(true);
  });

  it('--from without definitions checks the ClusterSets whose clusters DIR holds, not every definition', async () => {
    const repo = mkdtempSync(join(tmp, 'repo-'));
    mkdirSync(join(repo, 'clustersets'));
    writeFileSync(join(repo, 'clustersets/verify.yaml'), readFileSync(DEFINITION, 'utf8'));
    writeFileSync(join(repo, 'clustersets/demo.yaml'), readFileSync('clustersets/demo-clusterset.yaml', 'utf8').replace('../schema/', '../../schema/'));
    const dir = saved('only-verify', HEALTHY);
    const r = await runCli(['status', '--from', dir, '--format', 'json'], { cwd: repo });
    expect(r.status, r.stderr).toBe(0);
    expect((JSON.parse(r.stdout) as { clusterSets: { name: string }[] }).clusterSets.map((s) => s.name)).toEqual(['verify-clusterset']);
    // a folder with no cluster of any definition is a mistake, said as one
    const none = await runCli(['status', '--from', saved('nobody', { elsewhere: HEALTHY.north })], { cwd: repo });
    expect(none.status).toBe(2);
    expect(none.stderr).toMatch(/holds no saved objects of a cluster of the definitions/);
  });

  it('a saved dump is untrusted input: aliases and junk are a failed check, not a crash', async () => {
    const { code, stdout } = await run('--from', saved('hostile', { ...HEALTHY, west: 'a: &x [1]\nb: *x\n' }));
    expect(code).toBe(1);
    expect(stdout).toMatch(/west .* FAIL {2}.*west\.yaml is not kubectl output/);
  });

  it('reads the live clusters with kubectl get only, one context per cluster', async () => {
    const bin = join(tmp, 'bin');
    mkdirSync(bin, { recursive: true });
    const dumps = saved('live', HEALTHY);
    // prints the saved dump of the context's cluster for the ClusterSet kind, nothing for the others
    writeFileSync(
      join(bin, 'kubectl'),
      `#!/bin/sh\necho "$*" >> ${join(tmp, 'calls')}\n[ "$1" = --context ] && [ "$3" = get ] || exit 9\ncase $2 in ctx-*) id=\${2#ctx-} ;; *) id=$2 ;; esac\ncase $4 in clustersets.*) cat ${dumps}/$id.yaml ;; gateways.*) cat ${dumps}/$id.yaml ;; *) echo "error: the server doesn't have a resource type \\"serviceimports\\"" >&2; exit 1 ;; esac\n`,
    );
    chmodSync(join(bin, 'kubectl'), 0o755);
    const path = process.env.PATH;
    process.env.PATH = `${bin}:${path ?? ''}`;
    try {
      const { code, stdout } = await run('--contexts', 'east=ctx-east,west=ctx-west');
      // a kind the cluster does not serve is read as none of it (here the dumps hold the imports already)
      expect(stdout).toContain('all 25 checks pass');
      expect(code).toBe(0);
      const calls = readFileSync(join(tmp, 'calls'), 'utf8').trim().split('\n');
      expect(new Set(calls.map((c) => c.split(' ').slice(0, 3).join(' ')))).toEqual(
        new Set(['--context north get', '--context ctx-east get', '--context ctx-west get']),
      );
      expect(calls.every((c) => c.endsWith('--all-namespaces --request-timeout=30s -o yaml'))).toBe(true);
    } finally {
      process.env.PATH = path;
    }
  });

  it('a cluster without a kubectl context of its name: failed checks, and one hint naming --contexts and the README', async () => {
    const bin = join(tmp, 'bin-nocontext');
    mkdirSync(bin, { recursive: true });
    const dumps = saved('live-nocontext', HEALTHY);
    // kubectl's own words (client-go) for the two clusters the kubeconfig does not name
    writeFileSync(
      join(bin, 'kubectl'),
      `#!/bin/sh\ncase $2 in north) cat ${dumps}/north.yaml ;; *) echo "error: Error in configuration: context was not found for specified context: $2" >&2; exit 1 ;; esac\n`,
    );
    chmodSync(join(bin, 'kubectl'), 0o755);
    const path = process.env.PATH;
    process.env.PATH = `${bin}:${path ?? ''}`;
    try {
      const { code, stdout, stderr } = await run();
      expect(code).toBe(1);
      expect(stdout).toContain('east   clusterset-connected  ClusterSet verify-clusterset  FAIL  kubectl --context east get');
      expect(stderr).toBe(
        'hint: your kubeconfig has no context for east, west: name each cluster\'s context with --contexts ID=CONTEXT,..., or give each cluster a context named after its ID (the ClusterSet\'s README, "Tools and kubeconfig contexts")\n',
      );
    } finally {
      process.env.PATH = path;
    }
  });

  it('usage mistakes exit 2', async () => {
    expect((await run('--format', 'xml')).code).toBe(2);
    expect((await run('--contexts', 'east')).code).toBe(2);
    expect((await run('--from', tmp, '--contexts', 'a=b')).code).toBe(2);
  });
});
