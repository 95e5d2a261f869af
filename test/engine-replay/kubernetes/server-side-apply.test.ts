import { describe, expect, test } from 'vitest';
import { ApiServer } from './api-server';
import type { Obj } from './kube';
import { ARGOCD_MANAGER, argoCdApply, FLUX_MANAGER, fluxCleanup, LAST_APPLIED, ownersOf } from './server-side-apply';

/**
 * The replay's field ownership (server-side-apply.ts) against what the API server and the
 * engines do: each case is a rule of structured-merge-diff, kubectl, fluxcd/pkg ssa or
 * gitops-engine that a product or model mistake would break.
 */
const GATEWAY = 'multicluster.antrea.io/gateway';
const cluster = () => new ApiServer({ clusterID: 'c', nodes: ['n1'], cni: 'other' });
const node = (annotations: Record<string, string>, extra: Partial<Obj> = {}): Obj => ({
  apiVersion: 'v1',
  kind: 'Node',
  metadata: { name: 'n1', annotations },
  ...extra,
});
const live = (c: ApiServer) => c.get('v1', 'Node', undefined, 'n1')!;
const unschedulable = (o: Obj) => (o.spec as { unschedulable?: boolean } | undefined)?.unschedulable;
const webhooks = (o: Obj) => o.webhooks as { name: string; clientConfig: Record<string, unknown> }[];

/** `kubectl cordon n1` and `kubectl label node n1 drain=yes`: updates by kubectl's own managers. */
function byHand(c: ApiServer): void {
  const n = live(c);
  c.put({ ...n, spec: { ...(n.spec as object | undefined), unschedulable: true } }, 'kubectl');
  const m = live(c);
  c.put({ ...m, metadata: { ...m.metadata, labels: { ...m.metadata.labels, drain: 'yes' } } }, 'kubectl-label');
}

/** One Flux reconcile of an object: kustomize-controller's clean-up, then its apply (flux.ts). */
function fluxApplies(c: ApiServer, o: Obj): void {
  const cleaned = fluxCleanup(o, c.getLike(o));
  if (cleaned) c.put(cleaned, FLUX_MANAGER);
  expect(c.apply(o, { manager: FLUX_MANAGER }).ok).toBe(true);
}

describe('server-side apply', () => {
  test('a field the manager stops applying is removed; one another manager also owns stays', () => {
    const c = cluster();
    c.apply(node({ [GATEWAY]: 'true', 'a/b': '1' }), { manager: 'engine' });
    c.apply(node({ 'a/b': '1' }), { manager: 'person' });
    c.apply(node({}), { manager: 'engine' });
    expect(live(c).metadata.annotations).toEqual({ 'a/b': '1' });
    expect(ownersOf(live(c), ['metadata', 'annotations', 'a/b'])).toEqual(['person/Apply']);
  });

  test('what another manager set by update is kept by an apply that never held it', () => {
    const c = cluster();
    c.apply(node({ [GATEWAY]: 'true' }), { manager: 'engine' });
    byHand(c);
    c.apply(node({ [GATEWAY]: 'true' }), { manager: 'engine' });
    expect(unschedulable(live(c))).toBe(true);
    expect(live(c).metadata.labels?.drain).toBe('yes');
  });

  test('without force, a field another manager owns with another value conflicts; with force it changes owner', () => {
    const c = cluster();
    c.apply(node({ [GATEWAY]: 'true' }), { manager: 'person' });
    expect(c.apply(node({ [GATEWAY]: 'false' }), { manager: 'engine', force: false })).toMatchObject({
      ok: false,
      error: expect.stringContaining('conflict') as unknown,
    });
    expect(c.apply(node({ [GATEWAY]: 'false' }), { manager: 'engine', force: true }).ok).toBe(true);
    expect(ownersOf(live(c), ['metadata', 'annotations', GATEWAY])).toEqual(['engine/Apply']);
  });

  test('named list items merge by name and keep what a controller wrote into them (a webhook caBundle)', () => {
    const c = cluster();
    const hooks = (names: string[]): Obj => ({
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingWebhookConfiguration',
      metadata: { name: 'w' },
      webhooks: names.map((name) => ({ name, clientConfig: { service: { namespace: 'x', name: 'svc' } } })),
    });
    c.apply(hooks(['a', 'b']), { manager: 'engine' });
    const w = c.get('admissionregistration.k8s.io', 'ValidatingWebhookConfiguration', undefined, 'w')!;
    c.put({ ...w, webhooks: webhooks(w).map((h) => ({ ...h, clientConfig: { ...h.clientConfig, caBundle: 'ca' } })) }, 'antrea-controller');
    c.apply(hooks(['a']), { manager: 'engine' });
    const after = c.get('admissionregistration.k8s.io', 'ValidatingWebhookConfiguration', undefined, 'w')!;
    // b leaves with the fields the engine owned; what antrea-controller wrote in it does not keep a nameless item
    expect(webhooks(after).map((h) => h.name)).toEqual(['a', 'b']);
    expect(webhooks(after)[0]!.clientConfig.caBundle).toBe('ca');
    expect(webhooks(after)[1]).toEqual({ name: 'b', clientConfig: { caBundle: 'ca' } });
  });
});

describe('client-side apply (kubectl apply, Argo CD without ServerSideApply)', () => {
  test('what the last applied configuration held and the new one does not is deleted, whoever set it since', () => {
    const c = cluster();
    c.apply(node({ [GATEWAY]: 'true', 'a/b': '1' }), { manager: 'kubectl-client-side-apply', clientSide: true });
    expect(live(c).metadata.annotations?.[LAST_APPLIED]).toBeDefined();
    c.put({ ...live(c), metadata: { ...live(c).metadata, annotations: { ...live(c).metadata.annotations, 'a/b': '2' } } }, 'kubectl-annotate');
    byHand(c);
    c.apply(node({ [GATEWAY]: 'true' }), { manager: 'kubectl-client-side-apply', clientSide: true });
    expect(live(c).metadata.annotations?.['a/b']).toBeUndefined();
    // never in a configuration: kept
    expect(unschedulable(live(c))).toBe(true);
  });
});

describe("Flux: kustomize-controller's clean-up of kubectl's managers (fluxcd/pkg ssa patch.go, kustomize-controller apply())", () => {
  test('without ssa: Merge, the next reconcile removes a cordon and a label set with kubectl', () => {
    const c = cluster();
    fluxApplies(c, node({ [GATEWAY]: 'true' }));
    byHand(c);
    fluxApplies(c, node({ [GATEWAY]: 'true' }));
    expect(unschedulable(live(c))).toBeUndefined();
    expect(live(c).metadata.labels?.drain).toBeUndefined();
  });

  test('with kustomize.toolkit.fluxcd.io/ssa: Merge, they stay', () => {
    const c = cluster();
    const merged = node({ [GATEWAY]: 'true', 'kustomize.toolkit.fluxcd.io/ssa': 'Merge' });
    fluxApplies(c, merged);
    byHand(c);
    fluxApplies(c, merged);
    expect(unschedulable(live(c))).toBe(true);
    expect(live(c).metadata.labels?.drain).toBe('yes');
  });

  test('a controller that is not kubectl keeps its fields either way', () => {
    const c = cluster();
    fluxApplies(c, node({ [GATEWAY]: 'true' }));
    c.put({ ...live(c), metadata: { ...live(c).metadata, labels: { 'topology.kubernetes.io/zone': 'a' } } }, 'kubelet');
    fluxApplies(c, node({ [GATEWAY]: 'true' }));
    expect(live(c).metadata.labels).toEqual({ 'topology.kubernetes.io/zone': 'a' });
  });
});

describe('Argo CD (gitops-engine applyObject)', () => {
  test('server-side where the Application or the object says ServerSideApply=true, client-side otherwise', () => {
    expect(argoCdApply(['ServerSideApply=true'], node({}), undefined).clientSide).toBe(false);
    expect(argoCdApply([], node({ 'argocd.argoproj.io/sync-options': 'Prune=false,ServerSideApply=true' }), undefined).clientSide).toBe(false);
    expect(argoCdApply(['ServerSideApply=true'], node({ 'argocd.argoproj.io/sync-options': 'ServerSideApply=false' }), undefined).clientSide).toBe(true);
    expect(argoCdApply([], node({}), undefined).clientSide).toBe(true);
  });

  test("server-side: kubectl-client-side-apply's fields are migrated to argocd-controller, kubectl cordon's are not", () => {
    const c = cluster();
    c.apply(node({ [GATEWAY]: 'true', 'a/b': '1' }), { manager: 'kubectl-client-side-apply', clientSide: true });
    byHand(c);
    const target = node({ [GATEWAY]: 'true' });
    const how = argoCdApply(['ServerSideApply=true'], target, live(c));
    expect(how.migrated).toBeDefined();
    c.put(how.migrated!, 'kubectl-client-side-apply');
    expect(c.apply(target, { manager: ARGOCD_MANAGER }).ok).toBe(true);
    expect(live(c).metadata.annotations?.['a/b']).toBeUndefined();
    expect(unschedulable(live(c))).toBe(true);
  });
});

describe('finalizers delay deletion (apiserver registry store Delete)', () => {
  test('an object with a finalizer is marked and stays until its controller removes the last one', () => {
    const c = cluster();
    c.put({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x', namespace: 'default', finalizers: ['example.io/cleanup'] } });
    expect(c.delete({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x', namespace: 'default' } })).toBe(true);
    const marked = c.get('v1', 'ConfigMap', 'default', 'x');
    expect(marked?.metadata.deletionTimestamp).toBeDefined();
    c.put({ ...marked!, metadata: { ...marked!.metadata, finalizers: [] } });
    expect(c.get('v1', 'ConfigMap', 'default', 'x')).toBeUndefined();
  });
});
