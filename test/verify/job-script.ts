import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import { validateDefinitions } from '../../src/pipeline/pipeline';
import type { Verification } from '../../src/verify/verifications';
import { soakRows } from '../helpers/soak';
import { requireTool } from '../helpers/tools';

/**
 * What the verification's tests share (verifications.test.ts, verification-table.test.ts, service-answers.test.ts):
 * the verify fixture's definition, live objects as Antrea's controllers write them, and a run of a
 * cluster's Job script against the fake kubectl in each shell the image may have.
 */

const DEFINITION = join(import.meta.dirname, '../fixtures/verify/definition.yaml');
const FAKE_KUBECTL = join(import.meta.dirname, 'fake-kubectl');
const REAL_KUBECTL = spawnSync('sh', ['-c', 'command -v kubectl'], { encoding: 'utf8' }).stdout.trim();

/** A scratch folder for a test file's runs (its caller removes it after the file). */
export const scratch = (): string => mkdtempSync(join(process.env.CLUSTERSET_TEST_TMPDIR ?? tmpdir(), 'verify-'));

export type Obj = Record<string, unknown>;
export const cond = (type: string, status: string, message?: string) => ({ type, status, ...(message && { message }) });
export const memberSet = (ready: string, entry?: { ready: string; isLeader: string; message?: string }): Obj => ({
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
export const leaderSet = (entries: Record<string, string>): Obj => ({
  apiVersion: 'multicluster.crd.antrea.io/v1alpha2',
  kind: 'ClusterSet',
  metadata: { name: 'verify-clusterset', namespace: 'antrea-multicluster', generation: 1 },
  spec: { clusterID: 'north', leaders: [{ clusterID: 'north' }] },
  status: {
    conditions: [cond('Ready', 'True')],
    clusterStatuses: Object.entries(entries).map(([clusterID, s]) => ({ clusterID, conditions: [cond('Ready', s)] })),
  },
});
export const gateway = (node: string, ip: string): Obj => ({
  apiVersion: 'multicluster.crd.antrea.io/v1alpha1',
  kind: 'Gateway',
  metadata: { name: node, namespace: 'kube-system' },
  gatewayIP: ip,
  internalIP: ip,
});
/** what a member imported of another member's ClusterInfo (member/clusterinfo_importer.go): `<clusterID>-clusterinfo` */
export const clusterInfo = (of: string, ...ips: string[]): Obj => ({
  apiVersion: 'multicluster.crd.antrea.io/v1alpha1',
  kind: 'ClusterInfoImport',
  metadata: { name: `${of}-clusterinfo`, namespace: 'kube-system' },
  spec: { clusterID: of, gatewayInfos: ips.map((gatewayIP) => ({ gatewayIP })) },
});
export const serviceImport = (namespace: string, name: string): Obj => ({
  apiVersion: 'multicluster.x-k8s.io/v1alpha1',
  kind: 'ServiceImport',
  metadata: { name, namespace },
  spec: { type: 'ClusterSetIP', ports: [{ port: 80, protocol: 'TCP' }] },
});
export const connected = { ready: 'True', isLeader: 'True' };

/** The fixture with the gateway-ip of north's and east's candidates stated (west states none). */
export const STATED_IPS: Record<string, string> = { 'north-node-1': '172.18.0.10', 'east-node-1': '172.18.0.20', 'east-node-2': '172.18.0.21' };
export const definition = async () => {
  const { parsed, diagnostics } = await validateDefinitions([DEFINITION]);
  // north and west have one Gateway candidate each: gateway-ha's warnings (#51)
  expect(diagnostics.filter((d) => d.code !== 'gateway-ha')).toEqual([]);
  const d = parsed[0]!.definition;
  const clusters = d.spec.clusters.map((c) => ({ ...c, gateways: c.gateways.map((g) => (STATED_IPS[g.node] ? { ...g, ip: STATED_IPS[g.node] } : g)) }));
  return { ...d, spec: { ...d.spec, clusters } };
};

/** Runs a cluster's Job script against the fake kubectl; returns its report lines, exit code and kubectl calls. */
/** busybox, when installed (.ci/run installs it): the verification image's shell and `timeout` */
export const BUSYBOX = requireTool(
  'test/verify/job-script.ts',
  'busybox',
  spawnSync('busybox', ['true']).status === 0,
  'the Job script runs in dash and bash only',
);
// npm test runs the image's shell and dash, the strictest; the soak tier (test/helpers/soak.ts) bash too
export const SHELLS = soakRows(['sh', 'bash', ...(BUSYBOX ? ['busybox sh'] : [])], (shell) => shell !== 'bash' || !BUSYBOX);

/**
 * The real kubectl's answers by the objects and format asked (fake-kubectl), one folder per worker,
 * in the run's scratch folder (test/setup/scratch-in-memory.ts removes it).
 */
let kept: string | undefined;
const answers = (): string => (kept ??= mkdtempSync(join(process.env.CLUSTERSET_TEST_TMPDIR ?? tmpdir(), 'verify-kubectl-answers-')));

export function runScript(shell: string, script: string, dir: string) {
  const log = join(dir, 'kubectl.log');
  mkdirSync(join(dir, 'bin'), { recursive: true });
  writeFileSync(log, '');
  copyFileSync(FAKE_KUBECTL, join(dir, 'bin', 'kubectl'));
  const [command, ...args] = shell.split(' ');
  const run = spawnSync(command!, [...args, '-c', script], {
    encoding: 'utf8',
    env: {
      PATH: `${join(dir, 'bin')}:/usr/bin:/bin`,
      VERIFY_TIMEOUT: '0',
      FAKE_KUBE_OBJECTS: join(dir, 'objects'),
      FAKE_KUBE_LOG: log,
      FAKE_KUBE_CACHE: answers(),
      REAL_KUBECTL,
      FAKE_ANSWER: process.env.FAKE_ANSWER ?? '',
    },
  });
  const calls = readFileSync(log, 'utf8').split('\n').filter(Boolean);
  return { lines: run.stdout.split('\n').filter((l) => /^(PASS|FAIL) /.test(l)), status: run.status, calls };
}

export const verdictLine = (c: Verification, v: { ok: boolean; message: string }) => `${v.ok ? 'PASS' : 'FAIL'} ${c.check}: ${v.message}`;
