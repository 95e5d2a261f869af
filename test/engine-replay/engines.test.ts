import { describe, expect, test } from 'vitest';
import { stringify } from 'yaml';
import { ApiServer } from './kubernetes/api-server';
import { ArgoSync, type ArgoApplication } from './engines/argocd';
import { NO_SETTINGS } from './engines/argocd-health';
import { Fleet } from './antrea/controllers';
import { FluxRun } from './engines/flux';
import type { Obj } from './kubernetes/kube';
import { Revision } from './engines/revision';

/**
 * The engine models on small cases, each a behaviour of the engine's code that the first-install
 * replay relies on (and the next issues will: planned changes, a verification hook).
 */
const wave = (o: Obj, w: number, extra: Record<string, string> = {}): Obj => ({
  ...o,
  metadata: { ...o.metadata, annotations: { ...o.metadata.annotations, 'argocd.argoproj.io/sync-wave': String(w), ...extra } },
});
const configMap = (name: string, namespace = 'default'): Obj => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace } });
const deployment = (name: string, tolerations: unknown[] = []): Obj => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name, namespace: 'default' },
  spec: { replicas: 1, template: { metadata: { labels: { app: name } }, spec: { hostNetwork: true, tolerations } } },
});
const crd: Obj = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'things.example.io' },
  spec: { group: 'example.io', scope: 'Namespaced', names: { kind: 'Thing', plural: 'things' }, versions: [{ name: 'v1', served: true, storage: true }] },
};
const thing: Obj = { apiVersion: 'example.io/v1', kind: 'Thing', metadata: { name: 't', namespace: 'default' } };
const job: Obj = {
  apiVersion: 'batch/v1',
  kind: 'Job',
  metadata: { name: 'verify', namespace: 'default', annotations: { 'argocd.argoproj.io/hook': 'PostSync' } },
  spec: { template: { spec: { hostNetwork: true } } },
};

const APP: ArgoApplication = {
  name: 'app',
  labels: {},
  destination: { name: 'c' },
  path: '.',
  syncOptions: ['ServerSideApply=true'],
  retryLimit: 0,
  automated: true,
  selfHeal: true,
  prune: true,
  wave: 0,
};

/** A kubeadm-like cluster (Nodes NotReady, no agent) unless `ready`. */
function cluster(ready = true) {
  const c = new ApiServer({ clusterID: 'c', nodes: ['w'], cni: ready ? 'other' : 'none' });
  const fleet = new Fleet([c]);
  fleet.settle();
  return { c, fleet };
}

/** Steps a sync (and the controllers between its steps) until it stops moving. */
function runArgo(targets: Obj[], ready = true, app: ArgoApplication = APP) {
  const { c, fleet } = cluster(ready);
  const log: string[] = [];
  const sync = new ArgoSync(app, c, targets, (m) => log.push(m), NO_SETTINGS);
  for (let i = 0; i < 20 && sync.phase === 'Running'; i++) {
    sync.step();
    fleet.settle();
  }
  return { c, sync, log };
}

describe('Argo CD sync (gitops-engine sync_context.go)', () => {
  test('a wave waits for health: a Deployment that cannot schedule holds every later wave', () => {
    const { c, sync } = runArgo([wave(deployment('d'), 0), wave(configMap('later'), 1)], false);
    expect(sync.phase).toBe('Running');
    expect(sync.message).toMatch(/waiting for healthy state of Deployment default\/d/);
    expect(c.getLike(configMap('later'))).toBeUndefined();
  });

  test('the last wave is not waited for: the operation succeeds while it is still Progressing', () => {
    const { sync } = runArgo([wave(configMap('first'), 0), wave(deployment('d'), 1)], false);
    expect(sync.phase).toBe('Succeeded');
  });

  test('a kind the cluster does not serve fails the operation before anything is applied, unless its CRD is in the sync', () => {
    const refused = runArgo([wave(configMap('first'), 0), wave(thing, 1)]);
    expect(refused.sync).toMatchObject({ phase: 'Failed', message: 'one or more synchronization tasks are not valid' });
    expect(refused.c.getLike(configMap('first'))).toBeUndefined();
    const withCrd = runArgo([wave(crd, 0), wave(thing, 1)]);
    expect(withCrd.sync.phase).toBe('Succeeded');
    expect(withCrd.c.getLike(thing)).toBeDefined();
  });

  test('a refusal fails the operation after the rest of its wave is applied, and later waves never run', () => {
    const { c, sync } = runArgo([wave(configMap('ok'), 0), wave(configMap('app', 'missing'), 0), wave(configMap('later'), 1)]);
    expect(sync.phase).toBe('Failed');
    expect(c.getLike(configMap('ok'))).toBeDefined();
    expect(c.getLike(configMap('later'))).toBeUndefined();
  });

  test('a PostSync hook runs once every wave is healthy, and never after a failed wave', () => {
    const ok = runArgo([wave(configMap('a'), 0), wave(deployment('d'), 1), job]);
    expect(ok.sync.phase).toBe('Succeeded');
    expect(ok.log.some((l) => /PostSync wave 0/.test(l))).toBe(true);
    const stuck = runArgo([wave(configMap('a'), 0), wave(deployment('d'), 1), job], false);
    expect(stuck.sync.message).toMatch(/waiting for healthy state of Deployment default\/d/);
    expect(stuck.c.getLike(job)).toBeUndefined();
    const failed = runArgo([wave(configMap('app', 'missing'), 0), job]);
    expect(failed.sync.phase).toBe('Failed');
    expect(failed.c.getLike(job)).toBeUndefined();
  });

  test('prune: what the Application applied and the revision dropped goes, unless it carries Prune=false', () => {
    const { c } = runArgo([wave(configMap('dropped'), 0), wave(configMap('guarded'), 0, { 'argocd.argoproj.io/sync-options': 'Prune=false,Delete=false' })]);
    const next = new ArgoSync(APP, c, [wave(configMap('kept'), 0)], () => {}, NO_SETTINGS);
    for (let i = 0; i < 5 && next.phase === 'Running'; i++) next.step();
    expect(next.phase).toBe('Succeeded');
    expect(c.getLike(configMap('dropped'))).toBeUndefined();
    expect(c.getLike(configMap('guarded'))).toBeDefined();
  });
});

const revision = (units: Record<string, Obj[]>) =>
  new Revision(
    new Map(
      Object.entries(units).flatMap(([dir, objects]) => [
        [`${dir}/kustomization.yaml`, stringify({ resources: objects.map((_, i) => `o${i}.yaml`) })],
        ...objects.map((o, i): [string, string] => [`${dir}/o${i}.yaml`, stringify(o)]),
      ]),
    ),
  );

/** a Flux that reaches no other cluster: these units apply to its own */
const NOWHERE = { reach: () => undefined };

const unit = { name: 'u', path: 'u', dependsOn: [], prune: true, wait: true, healthCheckExprs: [], namespace: 'flux-system' };

describe('Flux Kustomization (kustomize-controller, fluxcd/pkg ssa)', () => {
  test('one refusal in a stage applies nothing of it (ApplyAll dry-runs the whole stage first)', () => {
    const { c } = cluster();
    const run = new FluxRun(unit, c, NOWHERE, revision({ u: [configMap('ok'), configMap('app', 'missing')] }), () => {});
    run.reconcile(() => true);
    expect(run.state).toBe('Failed');
    expect(run.message).toMatch(/ConfigMap missing\/app dry-run failed: namespaces "missing" not found/);
    expect(c.getLike(configMap('ok'))).toBeUndefined();
  });

  test('CRDs and Namespaces are applied first, so their objects pass in the same Kustomization', () => {
    const { c } = cluster();
    const ns: Obj = { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'app' } };
    const run = new FluxRun(unit, c, NOWHERE, revision({ u: [{ ...thing, metadata: { name: 't', namespace: 'app' } }, crd, ns] }), () => {});
    run.reconcile(() => true);
    expect(run.state).toBe('Ready');
  });

  test('dependsOn: nothing is applied before the dependency is Ready', () => {
    const { c } = cluster();
    const run = new FluxRun({ ...unit, dependsOn: ['before'] }, c, NOWHERE, revision({ u: [configMap('a')] }), () => {});
    run.reconcile(() => false);
    expect(run).toMatchObject({ state: 'Pending', message: "dependency 'before' is not ready" });
    expect(c.getLike(configMap('a'))).toBeUndefined();
  });

  test('wait: Ready only once every object is Current; a Deployment that cannot schedule times out', () => {
    const { c } = cluster(false);
    const run = new FluxRun(unit, c, NOWHERE, revision({ u: [deployment('d')] }), () => {});
    run.reconcile(() => true);
    expect(run.state).toBe('Progressing');
    run.timeout();
    expect(run.message).toMatch(/health check failed after timeout: waiting for Deployment default\/d \(InProgress\)/);
  });

  test('prune: an object that left the revision is deleted, unless the live object says prune: disabled', () => {
    const { c } = cluster();
    const guarded = {
      ...configMap('guarded'),
      metadata: { ...configMap('guarded').metadata, annotations: { 'kustomize.toolkit.fluxcd.io/prune': 'disabled' } },
    };
    const first = new FluxRun(unit, c, NOWHERE, revision({ u: [configMap('dropped'), guarded] }), () => {});
    first.reconcile(() => true);
    const next = new FluxRun(unit, c, NOWHERE, revision({ u: [configMap('kept')] }), () => {});
    next.inventory = first.inventory;
    next.reconcile(() => true);
    expect(c.getLike(configMap('dropped'))).toBeUndefined();
    expect(c.getLike(guarded)).toBeDefined();
  });

  test('prune and finalize delete only what still carries their owner label: an object another Kustomization applied since stays', () => {
    const { c } = cluster();
    const first = new FluxRun({ ...unit, name: 'old' }, c, NOWHERE, revision({ u: [configMap('moved'), configMap('gone')] }), () => {});
    first.reconcile(() => true);
    const taker = new FluxRun({ ...unit, name: 'new', path: 'n' }, c, NOWHERE, revision({ n: [configMap('moved')] }), () => {});
    taker.reconcile(() => true);
    const next = new FluxRun({ ...unit, name: 'old' }, c, NOWHERE, revision({ u: [] }), () => {});
    next.inventory = first.inventory;
    next.reconcile(() => true);
    expect(c.getLike(configMap('moved'))?.metadata.labels).toMatchObject({ 'kustomize.toolkit.fluxcd.io/name': 'new' });
    expect(c.getLike(configMap('gone'))).toBeUndefined();
    first.removedFromParent();
    expect(c.getLike(configMap('moved'))).toBeDefined();
  });

  test('a Kustomization its parent drops: orphaned with its objects when guarded, deleted with them (but for prune: disabled) when not', () => {
    const { c } = cluster();
    const guarded = new FluxRun({ ...unit, name: 'g', path: 'g', guarded: true }, c, NOWHERE, revision({ g: [configMap('kept-by-orphan')] }), () => {});
    guarded.reconcile(() => true);
    guarded.removedFromParent();
    expect(guarded.message).toMatch(/orphaned/);
    expect(c.getLike(configMap('kept-by-orphan'))).toBeDefined();
    const keep = { ...configMap('keep'), metadata: { ...configMap('keep').metadata, annotations: { 'kustomize.toolkit.fluxcd.io/prune': 'disabled' } } };
    const plain = new FluxRun(unit, c, NOWHERE, revision({ u: [configMap('gone'), keep] }), () => {});
    plain.reconcile(() => true);
    plain.removedFromParent();
    expect(c.getLike(configMap('gone'))).toBeUndefined();
    expect(c.getLike(keep)).toBeDefined();
  });
});
