// Issue #37 item 6: a change of delivery engine (spec.delivery.flux removed, Flux ↔ Argo CD, a hub
// Flux ↔ one Flux per cluster) is destructive, with the steps that hand the clusters over. The
// judges are the engines' own rules: kustomize-controller deletes everything a Kustomization applied
// when it is deleted with prune on (kustomization_controller.go, finalizerShouldDeleteResources,
// finalize), and Argo CD deletes an Application's resources only when it carries the resources
// finalizer (controller/appcontroller.go, finalizeApplicationDeletion and CascadedDeletion), which an
// ApplicationSet adds unless preserveResourcesOnDeletion (applicationset/utils/utils.go).
import { afterAll, describe, expect, it } from 'vitest';
import type { ClusterSetInput } from '../../src/model/clusterset';
import { planChanges } from '../../src/plan/plan-changes';
import { hasDestructive, type Plan } from '../../src/plan/plan';
import { runWithFakeKubectl, type KubectlCall } from '../helpers/fake-kubectl';
import { example, revision, type Definition } from '../helpers/plan-revision';

const ENV = { ARGOCD_CONTEXT: 'argocd-ctx', FLUX_CONTEXT: 'flux-ctx' };
const saved = { ...process.env };
Object.assign(process.env, ENV);
afterAll(() => {
  for (const k of Object.keys(ENV)) if (saved[k] === undefined) delete process.env[k];
});

const argocd = { namespace: 'argocd', project: 'default', repoURL: 'https://git.example.com/x.git', targetRevision: 'main' };
const flux = { sourceRef: { kind: 'GitRepository' as const, name: 'fleet', namespace: 'flux-system' } };

/** test-clusterset (a hub Flux), delivered another way. */
function deliveredBy(engine: 'argocd' | 'flux-hub' | 'flux-own' | 'manual', d: Definition = example('test-clusterset')): Definition {
  const copy = structuredClone<ClusterSetInput>(d);
  copy.spec.delivery = engine === 'argocd' ? { argocd } : engine === 'manual' ? {} : { flux };
  for (const c of copy.spec.clusters) {
    c.delivery =
      engine === 'argocd'
        ? { argocd: { name: c.clusterID } }
        : engine === 'flux-hub' && c.clusterID !== copy.spec.leader.clusterID
          ? { flux: { kubeConfigSecretRef: { name: `${c.clusterID}-kubeconfig` } } }
          : {};
  }
  return copy;
}

async function planOf(before: Definition, after: Definition): Promise<Plan> {
  const [b, a] = [await revision({ 'cs.yaml': before }), await revision({ 'cs.yaml': after })];
  return planChanges(b, a);
}

/** Every Kustomization and Application the old engine holds for the ClusterSet, as `kubectl get -o name` lists them. */
const KUSTOMIZATIONS = [
  'kustomization.kustomize.toolkit.fluxcd.io/test-clusterset-test-cluster-east-0-namespaces-crds',
  'kustomization.kustomize.toolkit.fluxcd.io/test-clusterset-test-cluster-east-4-resources',
];
function run(plan: Plan): KubectlCall[] {
  const commands = (plan.checklist ?? []).flatMap((i) => i.commands ?? []);
  const lists = Object.fromEntries(
    ['flux-ctx', 'test-cluster-north', 'test-cluster-east', 'test-cluster-west'].map((ctx) => [
      `${ctx} kustomizations.kustomize.toolkit.fluxcd.io`,
      KUSTOMIZATIONS,
    ]),
  );
  return runWithFakeKubectl(commands, lists);
}

/** kustomize-controller's finalizer: a Kustomization deleted while its prune is on deletes what it applied. */
function deletedWithPruneOn(calls: readonly KubectlCall[]): string[] {
  const pruneOff = new Set<string>();
  const bad: string[] = [];
  for (const c of calls) {
    const target = `${String(c.context)} ${c.operands.join(' ')}`;
    if (c.verb === 'patch' && c.args.join(' ').includes('"prune":false')) pruneOff.add(target);
    if (c.verb === 'delete' && /^kustomization/.test(c.operands[0] ?? '') && !pruneOff.has(target)) bad.push(target);
  }
  return bad;
}

interface ArgoObject {
  kind: string;
  metadata: { name: string; finalizers?: string[] };
  spec?: {
    generators?: { list?: { elements?: { name: string }[] } }[];
    syncPolicy?: { preserveResourcesOnDeletion?: boolean };
    template?: { metadata?: { finalizers?: string[] } };
  };
}
const RESOURCES_FINALIZER = 'resources-finalizer.argocd.argoproj.io';

/**
 * The Applications Argo CD holds for the base, by name: those an ApplicationSet generates (owned by
 * it: applicationset_controller.go createOrUpdateInCluster), with the resources finalizer when the
 * template has it or the ApplicationSet does not preserve resources (applicationset/utils/utils.go
 * RenderTemplateParams), and those applied as files.
 */
function argoApplications(objects: readonly ArgoObject[], applied: 'ApplicationSet' | 'Application'): Map<string, { owned: boolean; finalizer: boolean }> {
  const apps = new Map<string, { owned: boolean; finalizer: boolean }>();
  for (const o of objects.filter((x) => x.kind === applied)) {
    if (o.kind === 'Application') apps.set(o.metadata.name, { owned: false, finalizer: (o.metadata.finalizers ?? []).includes(RESOURCES_FINALIZER) });
    if (o.kind !== 'ApplicationSet') continue;
    const finalizer = (o.spec?.template?.metadata?.finalizers ?? []).includes(RESOURCES_FINALIZER) || o.spec?.syncPolicy?.preserveResourcesOnDeletion !== true;
    for (const g of o.spec?.generators ?? []) for (const e of g.list?.elements ?? []) apps.set(e.name, { owned: true, finalizer });
  }
  return apps;
}

/**
 * Argo CD's rule: an Application deleted while it carries the resources finalizer deletes what it
 * applied (controller/appcontroller.go finalizeApplicationDeletion). Deleting an ApplicationSet
 * deletes the Applications it owns unless `--cascade=orphan` (Kubernetes' garbage collector).
 */
function deletedWithTheirResources(calls: readonly KubectlCall[], apps: ReadonlyMap<string, { owned: boolean; finalizer: boolean }>): string[] {
  const state = new Map([...apps].map(([n, a]) => [n, { ...a }]));
  const bad: string[] = [];
  const gone = (name: string) => {
    if (state.get(name)?.finalizer) bad.push(name);
    state.delete(name);
  };
  for (const c of calls) {
    const target = /^applications?(\.argoproj\.io)?\/(.+)$/.exec(c.operands[0] ?? '')?.[2];
    if (c.verb === 'delete' && /^applicationsets?$/.test(c.operands[0] ?? '') && !c.args.includes('--cascade=orphan'))
      for (const [n, a] of state) if (a.owned) gone(n);
    if (c.verb === 'patch' && target && c.args.join(' ').includes('"finalizers":null')) state.get(target)!.finalizer = false;
    if (c.verb === 'delete' && target) gone(target);
    if (c.verb === 'delete' && /^applications?$/.test(c.operands[0] ?? '')) for (const n of [...state.keys()]) gone(n);
  }
  expect([...state.keys()], 'Applications left running').toEqual([]);
  return bad;
}

const CASES = [
  ['spec.delivery.flux removed (a hub Flux)', 'flux-hub', 'manual'],
  ['Flux (hub) → Argo CD', 'flux-hub', 'argocd'],
  ['Argo CD → Flux (hub)', 'argocd', 'flux-hub'],
  ['spec.delivery.argocd removed', 'argocd', 'manual'],
  ['one Flux per cluster → Argo CD', 'flux-own', 'argocd'],
  ['a hub Flux → one Flux per cluster', 'flux-hub', 'flux-own'],
] as const;

describe.each(CASES)('%s', (_, from, to) => {
  it('is destructive, with ordered hand-over steps and commands that delete nothing the clusters run', async () => {
    const plan = await planOf(deliveredBy(from), deliveredBy(to));
    expect(hasDestructive(plan)).toBe(true);
    const change = plan.changes.find((c) => c.impact === 'destructive' && /deliver/i.test(c.text));
    expect(change, plan.changes.map((c) => `[${c.impact}] ${c.text}`).join('\n')).toBeDefined();
    expect(change!.steps?.length).toBeGreaterThan(1);
    const calls = run(plan);
    expect(deletedWithPruneOn(calls)).toEqual([]);
    const deleted = calls.filter((c) => c.verb === 'delete').map((c) => c.operands.join(' '));
    if (from === 'flux-hub' && to === 'flux-own') {
      // the hub applies to its own cluster (the leader, no kubeconfig Secret): that cluster's Flux takes
      // its parent and Kustomizations over by name; only the remote clusters' go
      expect(deleted.some((d) => d.includes('antrea-test-clusterset'))).toBe(false);
      const selectors = calls.filter((c) => c.verb === 'get').map((c) => c.args[c.args.indexOf('-l') + 1]);
      expect(selectors.map((l) => /cluster-id=([\w-]+)/.exec(l ?? '')?.[1]).sort()).toEqual(['test-cluster-east', 'test-cluster-west']);
    } else if (from.startsWith('flux')) {
      // every Kustomization of the ClusterSet goes, each after its prune is off, the parent first
      expect(deleted).toEqual(expect.arrayContaining(KUSTOMIZATIONS));
      expect(deleted.findIndex((d) => d.includes('antrea-test-clusterset'))).toBe(0);
    }
    if (from === 'argocd') {
      // the ApplicationSets and every Application go, and no Application goes with the resources finalizer
      const base = await revision({ 'cs.yaml': deliveredBy(from) });
      const objects = base.outputs.flatMap((o) => Object.values(o.engines).flat()) as ArgoObject[];
      // applied as the ApplicationSets of argocd/, or as the Applications of argocd/applications/
      for (const applied of ['ApplicationSet', 'Application'] as const) {
        const apps = argoApplications(objects, applied);
        expect([...apps.values()].some((a) => a.finalizer)).toBe(true); // the exports units carry it
        const argoCalls = runWithFakeKubectl(
          (plan.checklist ?? []).flatMap((i) => i.commands ?? []),
          { 'argocd-ctx applications.argoproj.io': [...apps.keys()].map((n) => `application.argoproj.io/${n}`) },
        );
        expect(deletedWithTheirResources(argoCalls, apps), applied).toEqual([]);
      }
    }
    // the old engine goes once the new one delivers: its removal is after merging
    const removal = (plan.checklist ?? []).filter((i) => i.commands?.some((c) => / delete /.test(c)));
    expect(removal.length).toBeGreaterThan(0);
    expect(removal.every((i) => i.when === 'after merging')).toBe(true);
    // #49 item 2: the leaving engine's field manager lets go of what it co-owns, last, when another engine (another
    // manager) comes; a hub Flux and one Flux per cluster are one manager, and with nobody coming nothing is released
    const managers = { argocd: 'argocd-controller', 'flux-hub': 'kustomize-controller', 'flux-own': 'kustomize-controller' } as const;
    const released = (plan.checklist ?? []).flatMap((i) => (i.commands ?? []).map((c) => /--field-manager=(\S+)/.exec(c)?.[1]).filter(Boolean));
    const releases = to !== 'manual' && managers[from] !== managers[to];
    expect([...new Set(released)]).toEqual(releases ? [managers[from]] : []);
    if (releases) expect((plan.checklist ?? []).at(-1)!.commands!.every((c) => c.includes(`--field-manager=${managers[from]}`))).toBe(true);
    // an app-of-apps that applies argocd/applications/ prunes those Applications as soon as the merge takes the folder
    // out of git (their exports units' resources finalizer then deletes the ServiceExports): its prune goes before merging
    const appOfApps = (plan.checklist ?? []).filter((i) => /app-of-apps/.test(i.text));
    expect(appOfApps.map((i) => i.when)).toEqual(from === 'argocd' ? ['before merging'] : []);
    const steps = change!.steps ?? [];
    const warned = steps.findIndex((s) => /app-of-apps/.test(s));
    if (from === 'argocd') expect(warned >= 0 && steps.slice(0, warned).every((s) => s.startsWith('before merging'))).toBe(true);
    else expect(warned).toBe(-1);
  });
});

it('an engine where there was none takes over what runs: not destructive', async () => {
  const plan = await planOf(deliveredBy('manual'), deliveredBy('argocd'));
  expect(plan.changes.filter((c) => c.impact === 'destructive')).toEqual([]);
});

// #53 item 1: where a change names both engines, the plan gives Flux's words first, as it always has, by the registry's
// stated WORDS_ORDER (delivery/registry.ts), not by the registry's position, which would put a third engine first
it("both engines leaving: Flux's words come first", async () => {
  const both = deliveredBy('argocd');
  both.spec.delivery = { argocd, flux };
  const plan = await planOf(both, deliveredBy('manual'));
  const change = plan.changes.find((c) => c.impact === 'destructive' && /deliver/i.test(c.text));
  const details = change?.details ?? [];
  expect(details.findIndex((d) => d.startsWith('Flux'))).toBe(0);
  expect(details.findIndex((d) => d.startsWith('Argo CD'))).toBe(1);
});
