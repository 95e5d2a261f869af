import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { checkDefinitions } from '../../src/pipeline/pipeline';
import { jobChecks } from '../../src/synth/parts/verify-job';
import { effectiveClusters } from '../../src/model/effective';
import { gatewayPeerList, peersOf } from '../../src/model/gateways';
import { checksFor, checksOf, type CheckInstance } from '../../src/verify/checks';
import { LIVE_KINDS, parseLiveObjects } from '../../src/verify/live-objects';
import { verificationScript } from '../../src/verify/verify-script';
import { soakRows } from '../helpers/soak';
import { requireTool } from '../helpers/tools';

const DEFINITION = join(import.meta.dirname, '../fixtures/verify/definition.yaml');
const FAKE_KUBECTL = join(import.meta.dirname, 'fake-kubectl');
const REAL_KUBECTL = spawnSync('sh', ['-c', 'command -v kubectl'], { encoding: 'utf8' }).stdout.trim();
const tmp = mkdtempSync(join(process.env.CLUSTERSET_TEST_TMPDIR ?? tmpdir(), 'verify-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

type Obj = Record<string, unknown>;
const cond = (type: string, status: string, message?: string) => ({ type, status, ...(message && { message }) });
const memberSet = (ready: string, entry?: { ready: string; isLeader: string; message?: string }): Obj => ({
  apiVersion: 'multicluster.crd.antrea.io/v1alpha2',
  kind: 'ClusterSet',
  metadata: { name: 'verify-clusterset', namespace: 'kube-system', generation: 1 },
  spec: { clusterID: 'x', leaders: [{ clusterID: 'north', server: 'https://172.18.0.10:6443', secret: 't' }] },
  status: {
    observedGeneration: 1,
    conditions: [cond('Ready', ready)],
    ...(entry && { clusterStatuses: [{ clusterID: 'north', conditions: [cond('Ready', entry.ready, entry.message), cond('IsLeader', entry.isLeader)] }] }),
  },
});
const leaderSet = (entries: Record<string, string>): Obj => ({
  apiVersion: 'multicluster.crd.antrea.io/v1alpha2',
  kind: 'ClusterSet',
  metadata: { name: 'verify-clusterset', namespace: 'antrea-multicluster', generation: 1 },
  spec: { clusterID: 'north', leaders: [{ clusterID: 'north' }] },
  status: {
    conditions: [cond('Ready', 'True')],
    clusterStatuses: Object.entries(entries).map(([clusterID, s]) => ({ clusterID, conditions: [cond('Ready', s)] })),
  },
});
const gateway = (node: string, ip: string): Obj => ({
  apiVersion: 'multicluster.crd.antrea.io/v1alpha1',
  kind: 'Gateway',
  metadata: { name: node, namespace: 'kube-system' },
  gatewayIP: ip,
  internalIP: ip,
});
/** what a member imported of another member's ClusterInfo (member/clusterinfo_importer.go): `<clusterID>-clusterinfo` */
const clusterInfo = (of: string, ...ips: string[]): Obj => ({
  apiVersion: 'multicluster.crd.antrea.io/v1alpha1',
  kind: 'ClusterInfoImport',
  metadata: { name: `${of}-clusterinfo`, namespace: 'kube-system' },
  spec: { clusterID: of, gatewayInfos: ips.map((gatewayIP) => ({ gatewayIP })) },
});
const serviceImport = (namespace: string, name: string): Obj => ({
  apiVersion: 'multicluster.x-k8s.io/v1alpha1',
  kind: 'ServiceImport',
  metadata: { name, namespace },
  spec: { type: 'ClusterSetIP', ports: [{ port: 80, protocol: 'TCP' }] },
});
const connected = { ready: 'True', isLeader: 'True' };

/** Per scenario, per cluster: the live objects. */
const SCENARIOS: Record<string, Record<string, Obj[]>> = {
  healthy: {
    north: [
      leaderSet({ north: 'True', east: 'True', west: 'True' }),
      memberSet('True', connected),
      gateway('north-node-1', '172.18.0.10'),
      clusterInfo('east', '172.18.0.21'),
      clusterInfo('west', '172.18.0.30'),
      serviceImport('demo', 'nginx'),
      serviceImport('shop', 'api'),
    ],
    east: [
      memberSet('True', connected),
      gateway('east-node-2', '172.18.0.21'),
      clusterInfo('north', '172.18.0.10'),
      clusterInfo('west', '172.18.0.30'),
      serviceImport('demo', 'nginx'),
      serviceImport('shop', 'api'),
    ],
    west: [
      memberSet('True', connected),
      gateway('west-node-1', '172.18.0.30'),
      clusterInfo('north', '172.18.0.10'),
      clusterInfo('east', '172.18.0.21'),
      serviceImport('demo', 'nginx'),
      serviceImport('shop', 'api'),
    ],
  },
  'first install': {
    north: [leaderSet({}), memberSet('False', { ready: 'Unknown', isLeader: 'False', message: 'Leader cluster added' })],
    east: [memberSet('False', { ready: 'Unknown', isLeader: 'False', message: 'Leader cluster added' })],
    west: [],
  },
  'a member lost its leader': {
    north: [
      leaderSet({ north: 'True', east: 'False', west: 'True' }),
      memberSet('True', connected),
      gateway('north-node-1', '172.18.0.10'),
      serviceImport('demo', 'nginx'),
    ],
    east: [memberSet('False', { ready: 'False', isLeader: 'True', message: 'Unauthorized' }), gateway('east-node-1', '172.18.0.20')],
    west: [memberSet('Unknown', { ready: 'True', isLeader: 'False' }), serviceImport('demo', 'nginx')],
  },
  // #51: what one member's Job can tell of the Gateways: its own, and the IPs it imported of the others'
  'Gateways Antrea would not keep, and imports of no candidate': {
    north: [
      leaderSet({ north: 'True', east: 'True', west: 'True' }),
      memberSet('True', connected),
      gateway('north-node-1', '172.18.0.10'),
      // the standby's IP: a candidate's all the same (only `status` reads east's Gateway)
      clusterInfo('east', '172.18.0.20'),
      clusterInfo('west', '172.18.0.31'),
    ],
    east: [memberSet('True', connected), gateway('east-node-1', '172.18.0.20'), gateway('east-node-2', '172.18.0.21'), clusterInfo('north')],
    west: [memberSet('True', connected), gateway('west-node-9', '172.18.0.39'), clusterInfo('north', '172.18.0.10'), clusterInfo('east', '172.18.0.29')],
  },
};

/** The words of the Gateway checks, per scenario and cluster (the others' are compared shell to `status` only). */
const GATEWAY_WORDS: Record<string, Record<string, string[]>> = {
  healthy: {
    east: [
      'PASS gateway-elected: Gateway east-node-2 is active (gatewayIP 172.18.0.21)',
      "PASS clusterinfo-imported: ClusterInfo of north carries Gateway IP 172.18.0.10, a declared candidate's",
      'PASS clusterinfo-imported: ClusterInfo of west carries Gateway IP 172.18.0.30 (not compared: no ip stated for west-node-1)',
    ],
    west: [
      'PASS gateway-elected: Gateway west-node-1 is active (gatewayIP 172.18.0.30)',
      "PASS clusterinfo-imported: ClusterInfo of north carries Gateway IP 172.18.0.10, a declared candidate's",
      "PASS clusterinfo-imported: ClusterInfo of east carries Gateway IP 172.18.0.21, a declared candidate's",
    ],
  },
  'Gateways Antrea would not keep, and imports of no candidate': {
    north: [
      'PASS gateway-elected: Gateway north-node-1 is active (gatewayIP 172.18.0.10)',
      "PASS clusterinfo-imported: ClusterInfo of east carries Gateway IP 172.18.0.20, a declared candidate's",
      'PASS clusterinfo-imported: ClusterInfo of west carries Gateway IP 172.18.0.31 (not compared: no ip stated for west-node-1)',
    ],
    east: [
      'FAIL gateway-elected: 2 Gateways (east-node-1, east-node-2): Antrea keeps one',
      'FAIL clusterinfo-imported: ClusterInfo of north carries no Gateway IP',
      'FAIL clusterinfo-imported: ClusterInfo of west is not imported (no ClusterInfoImport west-clusterinfo)',
    ],
    west: [
      'FAIL gateway-elected: Gateway west-node-9 is not a declared candidate (west-node-1)',
      "PASS clusterinfo-imported: ClusterInfo of north carries Gateway IP 172.18.0.10, a declared candidate's",
      "FAIL clusterinfo-imported: ClusterInfo of east carries Gateway IP 172.18.0.29, none of east's candidates' (172.18.0.20, 172.18.0.21)",
    ],
  },
};

/** The fixture with the gateway-ip of north's and east's candidates stated (west states none). */
const STATED_IPS: Record<string, string> = { 'north-node-1': '172.18.0.10', 'east-node-1': '172.18.0.20', 'east-node-2': '172.18.0.21' };
const definition = async () => {
  const { parsed, diagnostics } = await checkDefinitions([DEFINITION]);
  // north and west have one Gateway candidate each: gateway-ha's warnings (#51)
  expect(diagnostics.filter((d) => d.code !== 'gateway-ha')).toEqual([]);
  const d = parsed[0]!.definition;
  const clusters = d.spec.clusters.map((c) => ({ ...c, gateways: c.gateways.map((g) => (STATED_IPS[g.node] ? { ...g, ip: STATED_IPS[g.node] } : g)) }));
  return { ...d, spec: { ...d.spec, clusters } };
};

/** Runs a cluster's Job script against the fake kubectl; returns its report lines, exit code and kubectl calls. */
/** busybox, when installed (.ci/run installs it): the verification image's shell and `timeout` */
const BUSYBOX = requireTool('test/verify/checks.test.ts', 'busybox', spawnSync('busybox', ['true']).status === 0, 'the Job script runs in dash and bash only');
// npm test runs the image's shell and dash, the strictest; the soak tier (test/helpers/soak.ts) bash too
const SHELLS = soakRows(['sh', 'bash', ...(BUSYBOX ? ['busybox sh'] : [])], (shell) => shell !== 'bash' || !BUSYBOX);

function runScript(shell: string, script: string, dir: string) {
  const log = join(dir, 'kubectl.log');
  mkdirSync(join(dir, 'bin'), { recursive: true });
  writeFileSync(log, '');
  execFileSync('cp', [FAKE_KUBECTL, join(dir, 'bin', 'kubectl')]);
  const [command, ...args] = shell.split(' ');
  const run = spawnSync(command!, [...args, '-c', script], {
    encoding: 'utf8',
    env: {
      PATH: `${join(dir, 'bin')}:/usr/bin:/bin`,
      VERIFY_TIMEOUT: '0',
      FAKE_KUBE_OBJECTS: join(dir, 'objects'),
      FAKE_KUBE_LOG: log,
      REAL_KUBECTL,
      FAKE_ANSWER: process.env.FAKE_ANSWER ?? '',
    },
  });
  const calls = readFileSync(log, 'utf8').split('\n').filter(Boolean);
  return { lines: run.stdout.split('\n').filter((l) => /^(PASS|FAIL) /.test(l)), status: run.status, calls };
}

describe.each(Object.entries(SCENARIOS))('%s', (scenario, clusters) => {
  it.each(Object.keys(clusters))('%s: the Job script and `status` give the same verdicts, in the same words', async (clusterID) => {
    const checks = checksOf(await definition()).filter((c) => c.clusterID === clusterID);
    const dir = join(tmp, scenario.replace(/\W+/g, '-'), clusterID);
    const objects = clusters[clusterID]!;
    for (const o of objects) {
      const meta = o.metadata as { name: string; namespace: string };
      const resource = LIVE_KINDS[o.kind as keyof typeof LIVE_KINDS];
      mkdirSync(join(dir, 'objects', resource, meta.namespace), { recursive: true });
      writeFileSync(join(dir, 'objects', resource, meta.namespace, `${meta.name}.yaml`), stringify(o));
    }
    const live = parseLiveObjects(stringify({ apiVersion: 'v1', kind: 'List', items: objects }));
    const fromStatus = checks.filter((c) => c.shell !== undefined).map((c) => verdictLine(c, c.evaluate!(live)));
    if (scenario === 'healthy') expect(fromStatus.every((l) => l.startsWith('PASS'))).toBe(true);
    if (scenario === 'first install') expect(fromStatus.every((l) => l.startsWith('FAIL'))).toBe(true);
    const words = GATEWAY_WORDS[scenario]?.[clusterID];
    if (words) expect(fromStatus.filter((l) => / (gateway-elected|clusterinfo-imported):/.test(l))).toEqual(words);
    // dash (Debian's sh), bash, and busybox ash: the image's /bin/sh (alpine/k8s, docs/verify.md)
    const calls = new Map<string, string[]>();
    for (const shell of SHELLS) {
      const run = runScript(shell, verificationScript('verify-clusterset', clusterID, checks), dir);
      expect(run.lines, shell).toEqual(fromStatus);
      expect(run.status, shell).toBe(fromStatus.every((l) => l.startsWith('PASS')) ? 0 : 1);
      calls.set(shell, run.calls);
    }
    // every shell makes the same calls (dash's, as it made them, are checked below)
    for (const shell of SHELLS) expect(calls.get(shell), shell).toEqual(calls.get('sh'));
    // least privilege: every read is a `get` by name, or a list of one Namespace, that the check's Role rules allow
    const allowed = checks.flatMap((c) =>
      c.reads.flatMap((r) => (r.list ? [`${r.resource}.${r.group} -n ${r.namespace}`] : r.names.map((n) => `${r.resource}.${r.group} ${n} -n ${r.namespace}`))),
    );
    for (const call of calls.get('sh')!) expect(allowed, call).toContain(call.replace(/^get /, '').replace(/ -o .*$/, ''));
    // a list reads only what the Role lets it list: no names in a list rule, a Namespace always
    for (const r of checks.flatMap((c) => c.reads)) if (r.list) expect([r.names, r.namespace !== '']).toEqual([[], true]);
  });
});

const verdictLine = (c: CheckInstance, v: { ok: boolean; message: string }) => `${v.ok ? 'PASS' : 'FAIL'} ${c.check}: ${v.message}`;

describe('the checks of a ClusterSet', () => {
  it('one per cluster role and declared object', async () => {
    const table = checksOf(await definition()).map((c) => `${c.clusterID} ${c.check} ${c.subject}`);
    expect(table).toEqual([
      'north members-connected ClusterSet verify-clusterset',
      'north clusterset-connected ClusterSet verify-clusterset',
      'north gateway-elected Gateway',
      'north gateway-candidates Gateway candidates',
      'north gateway-known ClusterInfo north',
      'north clusterinfo-imported ClusterInfo east',
      'north clusterinfo-imported ClusterInfo west',
      'north service-imported Service demo/nginx',
      'north service-imported Service shop/api',
      'east clusterset-connected ClusterSet verify-clusterset',
      'east gateway-elected Gateway',
      'east gateway-candidates Gateway candidates',
      'east gateway-known ClusterInfo east',
      'east clusterinfo-imported ClusterInfo north',
      'east clusterinfo-imported ClusterInfo west',
      'east service-imported Service demo/nginx',
      'east service-imported Service shop/api',
      'west clusterset-connected ClusterSet verify-clusterset',
      'west gateway-elected Gateway',
      'west gateway-candidates Gateway candidates',
      'west gateway-known ClusterInfo west',
      'west clusterinfo-imported ClusterInfo north',
      'west clusterinfo-imported ClusterInfo east',
      'west service-imported Service demo/nginx',
      'west service-imported Service shop/api',
    ]);
  });

  it("a retired candidate is no longer declared: not as the Gateway, not as another member's IP", async () => {
    const d = await definition();
    const retired = {
      ...d,
      spec: {
        ...d.spec,
        clusters: d.spec.clusters.map((c) =>
          c.clusterID === 'east' ? { ...c, gateways: c.gateways.map((g) => (g.node === 'east-node-1' ? { ...g, retired: true } : g)) } : c,
        ),
      },
    };
    const judge = (clusterID: string, check: string, objects: Obj[]) =>
      checksOf(retired)
        .filter((c) => c.clusterID === clusterID && c.check === check && (check !== 'clusterinfo-imported' || c.subject === 'ClusterInfo east'))
        .map((c) => verdictLine(c, c.evaluate!(parseLiveObjects(stringify({ apiVersion: 'v1', kind: 'List', items: objects })))));
    expect(judge('east', 'gateway-elected', [gateway('east-node-1', '172.18.0.20')])).toEqual([
      'FAIL gateway-elected: Gateway east-node-1 is not a declared candidate (east-node-2)',
    ]);
    expect(judge('west', 'clusterinfo-imported', [clusterInfo('east', '172.18.0.20')])).toEqual([
      "FAIL clusterinfo-imported: ClusterInfo of east carries Gateway IP 172.18.0.20, none of east's candidates' (172.18.0.21)",
    ]);
    expect(judge('west', 'clusterinfo-imported', [clusterInfo('east', '172.18.0.21')])).toEqual([
      "PASS clusterinfo-imported: ClusterInfo of east carries Gateway IP 172.18.0.21, a declared candidate's",
    ]);
  });

  // the definition's words reach the shell quoted: one metacharacter at a time, in a stated IP and a Node name
  it.each([
    ['a glob', '*', '9.9.9.9', false],
    ['a quote and a substitution', "1.2.3.4'$(touch pwned)", "1.2.3.4'$(touch pwned)", true],
    ['a space', '1.2.3.4 5.6.7.8', '5.6.7.8', false],
  ])('clusterinfo-imported with %s in a stated IP: the shell and `status` agree', async (_, stated, imported, ok) => {
    const d = await definition();
    const clusters = effectiveClusters(d);
    const west = clusters.find((c) => c.clusterID === 'west')!;
    const peer = { clusterID: 'east', ips: [stated], unstated: [] };
    const [check] = checksFor(d, clusters, west, [peer]).filter((c) => c.check === 'clusterinfo-imported');
    const objects = [clusterInfo('east', imported)];
    const expected = verdictLine(check!, check!.evaluate!(parseLiveObjects(stringify({ apiVersion: 'v1', kind: 'List', items: objects }))));
    expect(expected.startsWith(ok ? 'PASS' : 'FAIL')).toBe(true);
    const dir = join(tmp, `metacharacter-${stated.replace(/\W+/g, '-')}`);
    mkdirSync(join(dir, 'objects', LIVE_KINDS.ClusterInfoImport, 'kube-system'), { recursive: true });
    writeFileSync(join(dir, 'objects', LIVE_KINDS.ClusterInfoImport, 'kube-system', 'east-clusterinfo.yaml'), stringify(objects[0]));
    for (const shell of SHELLS) {
      expect(runScript(shell, `cd '${dir}'\n${verificationScript('verify-clusterset', 'west', [check!])}`, dir).lines, shell).toEqual([expected]);
    }
    expect(existsSync(join(dir, 'pwned'))).toBe(false);
  });

  it('the leader view names the members that are missing or disconnected', async () => {
    const [members] = checksOf(await definition());
    const judge = (entries: Record<string, string>) => members!.evaluate!(parseLiveObjects(stringify(leaderSet(entries))));
    expect(judge({})).toEqual({ ok: false, message: '0 of 3 members connected; never announced: north, east, west' });
    expect(judge({ north: 'True', east: 'False', west: 'True' })).toEqual({ ok: false, message: '2 of 3 members connected; disconnected: east' });
    expect(judge({ north: 'True', east: 'True', west: 'True' })).toEqual({ ok: true, message: '3 of 3 members connected' });
  });
});

describe('opt-in: the imported Service answers (spec.verify.request, the Job only)', () => {
  const withRequest = async () => {
    const d = await definition();
    return { ...d, spec: { ...d.spec, verify: { ...d.spec.verify, request: true } } };
  };

  it('one connection per Service, to antrea-mc-<name>.<namespace>.svc on the imported port; PASS or FAIL in domain words', async () => {
    const checks = checksOf(await withRequest()).filter((c) => c.clusterID === 'west');
    expect(checks.filter((c) => c.check === 'service-answers').map((c) => [c.subject, c.evaluate])).toEqual([
      ['Service demo/nginx', undefined],
      ['Service shop/api', undefined],
    ]);
    const dir = join(tmp, 'request');
    for (const o of [serviceImport('demo', 'nginx')]) {
      const meta = o.metadata as { name: string; namespace: string };
      mkdirSync(join(dir, 'objects', LIVE_KINDS.ServiceImport, meta.namespace), { recursive: true });
      writeFileSync(join(dir, 'objects', LIVE_KINDS.ServiceImport, meta.namespace, `${meta.name}.yaml`), stringify(o));
    }
    mkdirSync(join(dir, 'bin'), { recursive: true });
    // a timeout that records the connection it was asked for and answers as told
    writeFileSync(join(dir, 'bin', 'timeout'), '#!/bin/sh\nshift\necho "$*" >> "$FAKE_KUBE_LOG.connect"\nexit "$FAKE_ANSWER"\n', { mode: 0o755 });
    const script = verificationScript(
      'verify-clusterset',
      'west',
      checks.filter((c) => c.check === 'service-answers'),
    );
    for (const [answer, lines] of [
      [
        '0',
        [
          'PASS service-answers: Service demo/nginx answered on antrea-mc-nginx.demo.svc:80',
          'FAIL service-answers: Service shop/api has no imported port to connect to',
        ],
      ],
      [
        '1',
        [
          'FAIL service-answers: Service demo/nginx did not answer on antrea-mc-nginx.demo.svc:80',
          'FAIL service-answers: Service shop/api has no imported port to connect to',
        ],
      ],
    ] as const) {
      process.env.FAKE_ANSWER = answer;
      try {
        const run = runScript('sh', `export FAKE_ANSWER=${answer}\n${script}`, dir);
        expect(run.lines).toEqual(lines);
      } finally {
        delete process.env.FAKE_ANSWER;
      }
    }
    expect(readFileSync(join(dir, 'kubectl.log.connect'), 'utf8')).toContain('bash -c exec 3<>"/dev/tcp/$1/$2" connect antrea-mc-nginx.demo.svc 80');
  });

  it("the connection idiom is bash's, and tells an open port from a closed one", async () => {
    const server = createServer().listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    const port = (server.address() as AddressInfo).port;
    // coreutils' timeout here, busybox's in the image (Alpine links `timeout` to busybox)
    const timeouts = [['timeout'], ...(BUSYBOX ? [['busybox', 'timeout']] : [])];
    const connect = (timeout: string[], p: number) =>
      spawnSync(timeout[0]!, [...timeout.slice(1), '5', 'bash', '-c', 'exec 3<>"/dev/tcp/$1/$2"', 'connect', '127.0.0.1', String(p)]).status;
    for (const t of timeouts) expect(connect(t, port), t.join(' ')).toBe(0);
    server.close();
    await new Promise((r) => server.once('close', r));
    for (const t of timeouts) expect(connect(t, port), t.join(' ')).not.toBe(0);
  });

  it("a dual-role leader's Job checks only what the leader alone decides: no Service, not even one it exports", async () => {
    // in Argo CD the members' RollingSync step waits for the leader's PostSync hook: an application
    // not deployed yet on the leader must not hold every member back (`clusterset status` still checks it)
    const d = await withRequest();
    const clusters = effectiveClusters(d);
    const job = (id: string) =>
      jobChecks(
        d,
        clusters,
        clusters.find((c) => c.clusterID === id)!,
        peersOf(
          gatewayPeerList(clusters),
          clusters.find((c) => c.clusterID === id)!,
        ),
      ).map((c) => c.check);
    expect(job('north')).toEqual(['clusterset-connected', 'gateway-elected']);
    expect(job('west')).toEqual(expect.arrayContaining(['gateway-elected', 'clusterinfo-imported', 'service-imported', 'service-answers']));
    expect(checksOf(d).filter((c) => c.clusterID === 'north' && c.check === 'service-imported')).toHaveLength(2);
  });

  it("a dual-role leader's Service checks say whether it exports each Service", async () => {
    const north = checksOf(await withRequest()).filter((c) => c.clusterID === 'north' && c.check === 'service-answers');
    expect(north.map((c) => [c.subject, c.exportedHere])).toEqual([
      ['Service demo/nginx', true],
      ['Service shop/api', false],
    ]);
  });
});
