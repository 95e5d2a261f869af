import { expect } from 'vitest';
import { APPLICATION_RESOURCE } from '../../src/delivery/argocd/removal';
import { KUSTOMIZATION_RESOURCE } from '../../src/delivery/flux/removal';
import type { KubectlCall } from '../helpers/fake-kubectl';
import type { ApiServer } from './kubernetes/api-server';
import { applicationSetsIn, deleteApplication, type ArgoApplication } from './engines/argocd';
import { fluxKustomizationOf, FluxRun, isFluxKustomization, kustomizationsIn } from './engines/flux';
import type { Fleet } from './antrea/controllers';
import type { Obj } from './kubernetes/kube';
import { fluxBuild, type Revision } from './engines/revision';
import type { ReplayResult } from './replay';
import type { Compiled } from './scenario';

/**
 * The old engine in a hand-over (engine-hand-over.test.ts): its objects of the ClusterSet where the
 * engine keeps them, and each kubectl call of the plan's checklist performed on them with that
 * engine's own deletion rules.
 */

/** The contexts the printed commands name the engines by (`$ARGOCD_CONTEXT`, `$FLUX_CONTEXT`); `flux-mgmt`'s hub is the cluster `flux-hub`. */
export const CONTEXT = { argocd: 'argocd-home', flux: 'flux-hub' };

/** `kubectl -l`: equality requirements only (`k=v`, `k==v`), as the printed commands use. */
function selects(selector: string, labels: Readonly<Record<string, string>> | undefined): boolean {
  return selector.split(',').every((req) => {
    const m = /^([^=!]+)==?(.*)$/.exec(req);
    if (!m) throw new Error(`the replay does not model the selector ${req}`);
    return labels?.[m[1]!] === m[2];
  });
}
const selectorOf = (call: KubectlCall): string => {
  const i = call.args.findIndex((a) => a === '-l' || a === '--selector');
  if (i < 0) throw new Error(`${call.args.join(' ')}: no selector`);
  return call.args[i + 1]!;
};
/** The merge patch a `kubectl patch --type merge -p` call sends. */
const patchOf = (call: KubectlCall): MergePatch => {
  expect(call.args[call.args.indexOf('--type') + 1]).toBe('merge');
  return JSON.parse(call.args[call.args.indexOf('-p') + 1]!) as MergePatch;
};
/** What the printed patches set: an Application's finalizers (null removes them), a Kustomization's prune. */
interface MergePatch {
  metadata?: { finalizers?: string[] | null };
  spec?: { prune?: boolean };
}
/** The name in `<kind or resource>.<group>/<name>` (as `get -o name` prints it), if it is of `resource`. */
const nameIn = (operand: string | undefined, resource: string): string | undefined => {
  const m = /^([^/]+)\/(.+)$/.exec(operand ?? '');
  const singular = (r: string) => r.replace(/^(\w+?)s?(\.|$)/, '$1$2');
  return m && singular(m[1]!) === singular(resource) ? m[2] : undefined;
};

/**
 * Argo CD's objects of the ClusterSet as the Argo CD API server holds them: the ApplicationSets
 * applied from `argocd/`, and the Applications each generates, owned by it (controller reference:
 * applicationset_controller.go createOrUpdateInCluster), with the finalizers of its template
 * (applicationSetsIn: the resources finalizer unless preserveResourcesOnDeletion).
 */
export class ArgoCdObjects {
  readonly sets = new Map<string, { labels: Record<string, string> }>();
  readonly apps = new Map<string, { app: ArgoApplication; finalizers: string[]; owner?: string; cluster: ApiServer }>();

  constructor(base: Compiled, first: ReplayResult) {
    const { revision, folder } = base.forEngine('argocd');
    const clusterOf = new Map((first.argocdApps ?? []).map((a) => [a.app.name, a.cluster]));
    for (const o of revision.objectsIn(folder).filter((x) => x.kind === 'ApplicationSet')) this.sets.set(o.metadata.name, { labels: o.metadata.labels ?? {} });
    for (const set of applicationSetsIn(revision, folder))
      for (const app of set.applications) {
        const cluster = clusterOf.get(app.name);
        if (cluster === undefined) throw new Error(`${app.name} reached no cluster in the first install`);
        this.apps.set(app.name, { app, finalizers: [...(app.finalizers ?? [])], owner: set.name, cluster: first.fleet.cluster(cluster) });
      }
  }

  /**
   * An Application deleted: Argo CD's finalizer deletes what it applied when it still carries the
   * resources finalizer (deleteApplication: controller/appcontroller.go finalizeApplicationDeletion).
   */
  private deleteApp(name: string): void {
    const a = this.apps.get(name)!;
    deleteApplication({ ...a.app, finalizers: a.finalizers }, a.cluster, () => {});
    this.apps.delete(name);
  }

  perform(call: KubectlCall): void {
    const [resource] = call.operands;
    if (call.verb === 'delete' && /^applicationsets?(\.argoproj\.io)?$/.test(resource!)) {
      const selector = selectorOf(call);
      const gone = [...this.sets].filter(([, s]) => selects(selector, s.labels)).map(([n]) => n);
      expect(gone, `${call.args.join(' ')}: selects no ApplicationSet`).not.toEqual([]);
      // kubectl's default cascade is background: Kubernetes' garbage collector deletes the Applications the
      // ApplicationSet owns (pkg/controller/garbagecollector/garbagecollector.go attemptToDeleteItem); with orphan it takes
      // their owner references off (orphanDependents)
      const cascade = call.args.find((a) => a.startsWith('--cascade='))?.slice('--cascade='.length) ?? 'background';
      for (const set of gone) {
        this.sets.delete(set);
        for (const [name, a] of [...this.apps])
          if (a.owner === set) {
            if (cascade === 'orphan') delete a.owner;
            else this.deleteApp(name);
          }
      }
      return;
    }
    if (call.verb === 'get' && resource === APPLICATION_RESOURCE) {
      // every Application the loop lists (CONTEXT's list: all there are) is one of the ClusterSet's
      const selector = selectorOf(call);
      for (const [name, a] of this.apps) expect(selects(selector, a.app.labels), `${name} not selected by ${selector}`).toBe(true);
      return;
    }
    const name = nameIn(resource, APPLICATION_RESOURCE);
    if (!name) throw new Error(`the replay does not model ${call.args.join(' ')}`);
    const a = this.apps.get(name);
    // an Application the ApplicationSet's cascade already deleted: kubectl answers NotFound and the loop goes on
    if (!a) return;
    if (call.verb === 'patch') {
      const patch = patchOf(call);
      if (patch.metadata && 'finalizers' in patch.metadata) a.finalizers = patch.metadata.finalizers ?? [];
      // while its ApplicationSet is there (not being deleted), the ApplicationSet controller, which watches its
      // Applications' finalizers, writes its template's back (applicationset_controller.go createOrUpdateInCluster:
      // found.Finalizers = generatedApp.Finalizers); taken as done before the loop's delete
      if (a.owner !== undefined && this.sets.has(a.owner)) a.finalizers = [...(a.app.finalizers ?? [])];
      return;
    }
    expect(call.verb).toBe('delete');
    this.deleteApp(name);
  }

  listed(): string[] {
    return [...this.apps.keys()].map((n) => `application.argoproj.io/${n}`);
  }
}

/** The Flux objects of a folder and of its cluster folders (one Flux per cluster reads `flux/<clusterID>/`). */
function objectsUnder(revision: Revision, folder: string): Obj[] {
  const dirs = new Set([folder, ...[...revision.files.keys()].filter((p) => p.startsWith(`${folder}/`)).map((p) => p.slice(0, p.lastIndexOf('/')))]);
  return [...dirs].flatMap((d) => revision.objectsIn(d));
}

/**
 * Flux's objects of the ClusterSet, in the Flux that holds each (the hub, or each cluster's own):
 * the parent `antrea-<clusterset>` the README creates in each Flux (`--prune=true`, its inventory
 * the layer Kustomizations of its path) and each layer Kustomization (the first install's runs).
 * Deleted, a Kustomization whose live `spec.prune` is on deletes what it applied, but for objects
 * that say `prune: disabled` (kustomization_controller.go finalize, finalizerShouldDeleteResources;
 * FluxRun.deletedByPerson); the layer Kustomizations say so, the exports units do not (#38).
 */
export class FluxObjects {
  readonly runs: Map<string, FluxRun>;
  readonly labels: Map<string, Record<string, string>>;
  /** the parent in each Flux, by the cluster it runs in: its path (the README's `--path`) and its live `spec.prune` */
  readonly parents = new Map<string, { path: string; prune: boolean }>();
  /** the clusters a Flux of the old engine runs in */
  private readonly fluxes: ReadonlySet<string>;
  readonly parentName: string;
  private readonly pruneOff = new Set<string>();

  /** `hub`: the cluster a hub Flux runs in (`$FLUX_CONTEXT`); none, each cluster's own Flux (its context is its ID) */
  constructor(
    base: Compiled,
    first: ReplayResult,
    private readonly hub: string | undefined,
    private readonly fleet: Fleet,
  ) {
    const { revision, folder } = base.forEngine('flux');
    this.runs = new Map(first.fluxRuns);
    this.labels = new Map(objectsUnder(revision, folder).map((o) => [o.metadata.name, o.metadata.labels ?? {}]));
    this.parentName = `antrea-${base.definition.metadata.name}`;
    this.fluxes = new Set([...this.runs.values()].map((r) => r.home.clusterID));
    // the README's parents: in each Flux, one Kustomization of the folder that Flux applies
    for (const [path, flux] of fleet.operator.fluxHomes)
      if (this.fluxes.has(flux) && kustomizationsIn(revision, path).length > 0) this.parents.set(flux, { path, prune: true });
    expect([...this.parents.keys()].sort()).toEqual([...this.fluxes].sort());
  }

  /**
   * Each old parent reconciles `revision` (git after the merge): kustomize-controller builds its
   * path as it stands there (fluxBuild: gone, it fails and applies and prunes nothing; without a
   * kustomization.yaml, every YAML file below it) and applies the Kustomizations it finds into its
   * Flux, server-side as the same manager: a field it applied before and applies no more (a
   * `spec.kubeConfig`) is removed (server-side-apply.ts). Those that left its inventory are pruned
   * with its prune on, but for those that say `prune: disabled`. Each Kustomization it changed then
   * reconciles, as the controller's watch makes it, until it settles.
   */
  reconcileParents(revision: Revision, log: (m: string) => void): void {
    for (const [flux, parent] of this.parents) {
      const built = fluxBuild(revision, parent.path);
      if (!built) {
        log(`[flux] ${flux} ${this.parentName}: kustomization path not found: ${parent.path}`);
        continue;
      }
      const home = this.fleet.cluster(flux);
      const ks = built.filter(isFluxKustomization).map(fluxKustomizationOf);
      const changed: FluxRun[] = [];
      for (const k of ks) {
        const before = this.runs.get(k.name);
        if (before && before.home.clusterID !== flux) continue;
        if (before && JSON.stringify(before.k) === JSON.stringify(k)) continue;
        const run = new FluxRun(k, home, this.fleet, revision, log);
        if (before) [run.inventory, run.applied] = [before.inventory, before.applied];
        this.runs.set(k.name, run);
        changed.push(run);
      }
      const kept = new Set(ks.map((k) => k.name));
      for (const [n, run] of [...this.runs])
        if (run.home.clusterID === flux && !kept.has(n) && parent.prune && !run.k.guarded) {
          run.removedFromParent();
          this.runs.delete(n);
        }
      const ready = (n: string) => this.runs.get(n)?.state === 'Ready';
      for (let round = 0; round < 20 && changed.some((r) => r.state !== 'Ready'); round++) {
        for (const run of changed)
          if (run.state === 'Progressing') run.checkHealth();
          else if (run.state !== 'Ready') run.reconcile(ready);
        this.fleet.settle();
      }
    }
  }

  /** The cluster whose Flux a context names. */
  private fluxOf(context: string | undefined): string {
    const flux = context === CONTEXT.flux ? this.hub : context;
    expect(flux !== undefined && this.fluxes.has(flux), `context ${String(context)} names no Flux of the old engine`).toBe(true);
    return flux!;
  }

  /** What each `get kustomizations -l …` of `calls` lists: the Kustomizations left in that Flux that its selector selects. */
  lists(calls: readonly KubectlCall[]): Record<string, string[]> {
    const out: Record<string, string[]> = {};
    for (const call of calls.filter((c) => c.verb === 'get' && c.operands[0] === KUSTOMIZATION_RESOURCE)) {
      const [flux, selector] = [this.fluxOf(call.context), selectorOf(call)];
      out[`${String(call.context)} ${KUSTOMIZATION_RESOURCE}`] = [...this.runs]
        .filter(([n, run]) => run.home.clusterID === flux && selects(selector, this.labels.get(n)))
        .map(([n]) => `kustomization.kustomize.toolkit.fluxcd.io/${n}`);
    }
    return out;
  }

  perform(call: KubectlCall): void {
    const flux = this.fluxOf(call.context);
    const [resource] = call.operands;
    if (call.verb === 'get' && resource === KUSTOMIZATION_RESOURCE) return;
    const name = call.operands[0] === 'kustomization' ? call.operands[1] : nameIn(resource, KUSTOMIZATION_RESOURCE);
    if (!name) throw new Error(`the replay does not model ${call.args.join(' ')}`);
    if (name === this.parentName) {
      const parent = this.parents.get(flux);
      // deleted already (`--ignore-not-found`), or taken over by the new engine: the command fails or changes the new engine's
      expect(parent, `${call.args.join(' ')}: no parent of the old engine there`).toBeDefined();
      if (!parent) return;
      if (call.verb === 'patch') parent.prune = patchOf(call).spec?.prune ?? parent.prune;
      else {
        expect(call.verb).toBe('delete');
        // the parent's finalizer deletes the layer Kustomizations it applied, but for those that say prune: disabled
        if (parent.prune) for (const [n, run] of [...this.runs]) if (run.home.clusterID === flux && !run.k.guarded) this.deleteRun(n);
        this.parents.delete(flux);
      }
      return;
    }
    const run = this.runs.get(name);
    expect(run?.home.clusterID, `${call.args.join(' ')}: no such Kustomization in that Flux`).toBe(flux);
    if (call.verb === 'patch') {
      if (patchOf(call).spec?.prune === false) this.pruneOff.add(name);
      return;
    }
    expect(call.verb).toBe('delete');
    this.deleteRun(name);
  }

  /**
   * The new engine's README creates its parent (`flux create kustomization antrea-<clusterset>`, an
   * upsert: flux2 cmd/flux/create_kustomization.go upsertKustomization) in a Flux that holds the old one: the same object, now with the new path. Its inventory
   * becomes the Kustomizations `kept` (the new engine's there, taken over by name), and
   * kustomize-controller prunes those that left it with its prune on, but for those that say
   * `prune: disabled` (kustomization_controller.go prune → deleteObjects, Exclusions); each pruned
   * one's finalizer then deletes what it applied under its name (FluxRun.deletedByPerson).
   */
  repointParent(flux: string, kept: ReadonlySet<string>): void {
    const parent = this.parents.get(flux);
    if (!parent) return;
    for (const [n, run] of [...this.runs])
      if (run.home.clusterID !== flux) continue;
      else if (kept.has(n)) this.runs.delete(n);
      else if (parent.prune && !run.k.guarded) this.deleteRun(n);
    this.parents.delete(flux);
  }

  private deleteRun(name: string): void {
    const run = this.runs.get(name)!;
    run.deletedByPerson(run.k.prune && !this.pruneOff.has(name));
    this.runs.delete(name);
  }

  left(): string[] {
    return [...this.runs.keys(), ...[...this.parents.keys()].map((c) => `${c} ${this.parentName}`)];
  }
}
