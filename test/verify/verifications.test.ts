import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { verificationsOf } from '../../src/verify/verifications';
import { LIVE_KINDS, parseLiveObjects } from '../../src/verify/live-objects';
import { verificationScript } from '../../src/verify/verify-script';
import {
  SHELLS,
  clusterInfo,
  connected,
  definition,
  gateway,
  leaderSet,
  memberSet,
  runScript,
  scratch,
  serviceImport,
  verdictLine,
  type Obj,
} from './job-script';

// The verification: the Job script and `status` agree, in every shell.
// job-script.ts holds the fixture, the live objects and the shells' runs.

const tmp = scratch();
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

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

describe.each(Object.entries(SCENARIOS))('%s', (scenario, clusters) => {
  it.each(Object.keys(clusters))('%s: the Job script and `status` give the same verdicts, in the same words', async (clusterID) => {
    const checks = verificationsOf(await definition()).filter((c) => c.clusterID === clusterID);
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
