import type { ApiServer } from './api-server';
import { kstatus, type HealthCheckExpr } from './health';
import { annotation, groupOf, keyOf, refOf, type Obj } from './kube';
import type { Revision } from './revision';
import { FLUX_MANAGER, fluxCleanup, fluxSkips } from './server-side-apply';

const PRUNE = 'kustomize.toolkit.fluxcd.io/prune';
const CLUSTER_ID = 'antrea-clusterset/cluster-id';
/** the inventory owner's label kustomize-controller sets on what it applies (its name; the namespace label is left out here) */
const OWNER = 'kustomize.toolkit.fluxcd.io/name';

/** A Flux Kustomization as kustomize-controller reads it. */
export interface FluxKustomization {
  readonly name: string;
  readonly path: string;
  readonly dependsOn: readonly string[];
  readonly prune: boolean;
  readonly wait: boolean;
  readonly healthCheckExprs: readonly HealthCheckExpr[];
  /** the cluster it applies to (its kubeConfig, or the cluster Flux runs in): our label names it */
  readonly cluster: string;
  /** `kustomize.toolkit.fluxcd.io/prune: disabled` on the Kustomization itself: its parent orphans it instead of deleting it */
  readonly guarded?: boolean;
}

export function kustomizationsIn(revision: Revision, folder: string): FluxKustomization[] {
  return revision
    .objectsIn(folder)
    .filter((o) => o.kind === 'Kustomization' && o.apiVersion.startsWith('kustomize.toolkit.fluxcd.io/'))
    .map((o) => ({
      name: o.metadata.name,
      path: o.spec.path,
      dependsOn: ((o.spec.dependsOn ?? []) as { name: string }[]).map((d) => d.name),
      prune: o.spec.prune === true,
      wait: o.spec.wait === true,
      healthCheckExprs: o.spec.healthCheckExprs ?? [],
      cluster: o.metadata.labels?.[CLUSTER_ID] ?? '',
      guarded: annotation(o, PRUNE) === 'disabled',
    }));
}

export type FluxState = 'Pending' | 'Progressing' | 'Ready' | 'Failed';

/**
 * CRDs and Namespaces first (fluxcd/pkg ssa/utils IsClusterDefinition, applied and waited for
 * by ResourceManager.ApplyAllStaged), then everything else in one ApplyAll.
 */
const isClusterDefinition = (o: Obj): boolean => o.kind === 'CustomResourceDefinition' || o.kind === 'Namespace';

/** fluxcd/pkg ssa/sort.go: these kinds first, webhook configurations last, then group, kind, namespace, name. */
const ORDER_FIRST = [
  'CustomResourceDefinition',
  'Namespace',
  'ResourceQuota',
  'StorageClass',
  'ServiceAccount',
  'PodSecurityPolicy',
  'Role',
  'ClusterRole',
  'RoleBinding',
  'ClusterRoleBinding',
  'ConfigMap',
  'Secret',
  'Service',
  'LimitRange',
  'PriorityClass',
  'Deployment',
  'StatefulSet',
  'CronJob',
  'PodDisruptionBudget',
];
const ORDER_LAST = ['MutatingWebhookConfiguration', 'ValidatingWebhookConfiguration'];
const kindIndex = (kind: string): number =>
  ORDER_FIRST.includes(kind) ? ORDER_FIRST.indexOf(kind) - ORDER_FIRST.length : ORDER_LAST.includes(kind) ? 1 + ORDER_LAST.indexOf(kind) : 0;
const cmp = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
const applyOrder = (a: Obj, b: Obj): number =>
  kindIndex(a.kind) - kindIndex(b.kind) ||
  cmp(groupOf(a.apiVersion), groupOf(b.apiVersion)) ||
  cmp(a.kind, b.kind) ||
  cmp(a.metadata.namespace ?? '', b.metadata.namespace ?? '') ||
  cmp(a.metadata.name, b.metadata.name);

/**
 * One Kustomization's reconciliation (fluxcd/kustomize-controller internal/controller/
 * kustomization_controller.go reconcile): it waits until every `dependsOn` is Ready
 * (checkDependencies), builds its path, applies with fluxcd/pkg ssa ApplyAllStaged — whose
 * ApplyAll dry-runs every object of a stage server-side before applying any, so one refusal
 * (a missing Namespace, an unserved kind, a webhook that does not answer, an admission policy)
 * applies nothing of that stage —, prunes what left its inventory unless the live object says
 * `prune: disabled`, and with `wait` is Ready only once every applied object is Current for
 * kstatus and its healthCheckExprs; a health check that never passes ends in a timeout
 * (HealthCheckFailed) and the whole reconciliation is retried at the interval.
 */
export class FluxRun {
  state: FluxState = 'Pending';
  message = '';
  inventory: Obj[] = [];
  /** steps spent waiting for health since the last apply */
  waited = 0;

  constructor(
    readonly k: FluxKustomization,
    private readonly cluster: ApiServer,
    private readonly revision: Revision,
    private readonly log: (m: string) => void,
  ) {}

  private set(state: FluxState, message: string): void {
    if (state !== this.state || message !== this.message) this.log(`${this.k.name}: ${state}: ${message}`);
    this.state = state;
    this.message = message;
  }

  /** One reconciliation attempt (a retry of a Failed one is the same call). */
  reconcile(ready: (name: string) => boolean): void {
    const blocked = this.k.dependsOn.filter((d) => !ready(d));
    if (blocked.length > 0) return this.set('Pending', `dependency '${blocked[0]}' is not ready`);
    let objects: Obj[];
    try {
      objects = this.revision.build(this.k.path);
    } catch (e) {
      return this.set('Failed', `kustomize build failed: ${(e as Error).message}`);
    }
    const stageOne = objects.filter(isClusterDefinition).sort(applyOrder);
    const stageTwo = objects.filter((o) => !isClusterDefinition(o)).sort(applyOrder);
    for (const stage of [stageOne, stageTwo]) {
      const refusals = stage.map((o) => ({ o, r: this.cluster.apply(o, { dryRun: true, manager: FLUX_MANAGER }) })).filter((x) => !x.r.ok);
      if (refusals.length > 0)
        return this.set(
          'Failed',
          `${refOf(refusals[0]!.o)} dry-run failed: ${(refusals[0]!.r as { error: string }).error}${refusals.length > 1 ? ` (and ${refusals.length - 1} more)` : ''}`,
        );
      for (const o of stage) {
        // server-side apply as kustomize-controller, after its clean-up of kubectl's managers (server-side-apply.ts)
        const desired = withOwner(o, this.k.name);
        const live = this.cluster.getLike(desired);
        if (fluxSkips(desired, live)) continue;
        const cleaned = fluxCleanup(desired, live);
        if (cleaned) this.cluster.put(cleaned, FLUX_MANAGER);
        const r = this.cluster.apply(desired, { manager: FLUX_MANAGER });
        if (!r.ok) return this.set('Failed', `${refOf(o)} apply failed: ${r.error}`);
      }
    }
    const keys = new Set(objects.map(keyOf));
    if (this.k.prune)
      this.deleteAll(
        this.inventory.filter((old) => !keys.has(keyOf(old))),
        'pruned',
      );
    this.inventory = objects;
    this.waited = 0;
    if (!this.k.wait) return this.set('Ready', 'Applied revision');
    this.set('Progressing', 'waiting for health checks');
    this.checkHealth();
  }

  /** ssa ResourceManager.WaitForSet with the kstatus poller: Ready once every object is Current. */
  checkHealth(): void {
    const notCurrent = this.inventory.map((o) => ({ o, s: kstatus(this.cluster.getLike(o), this.k.healthCheckExprs) })).filter((x) => x.s.status !== 'Current');
    const failed = notCurrent.find((x) => x.s.status === 'Failed');
    if (failed) return this.set('Failed', `health check failed: ${refOf(failed.o)} Failed`);
    if (notCurrent.length === 0) return this.set('Ready', 'Applied revision; health checks passed');
    this.waited++;
    this.message = `waiting for ${notCurrent.map((x) => `${refOf(x.o)} (${x.s.status})`).join(', ')}`;
  }

  /**
   * The Kustomization left the parent's revision. The parent garbage-collects it unless it says
   * `prune: disabled` (then it is orphaned: it keeps its inventory and only reports that its path is
   * gone); deleted, its finalizer prunes what it applied, except live objects that say `prune:
   * disabled` (kustomization_controller.go finalize).
   */
  removedFromParent(): void {
    if (this.k.guarded) return this.set('Failed', 'orphaned: its path is no longer in the source; nothing is pruned');
    if (this.k.prune) this.deleteAll(this.inventory, 'deleted with its Kustomization:');
    this.inventory = [];
    this.set('Pending', 'deleted by its parent');
  }

  /**
   * Deleted by a person (`kubectl delete`): kustomize-controller's finalizer deletes what it
   * applied when the live `spec.prune` is true and it is not suspended (kustomization_controller.go,
   * finalize); `prune` is the live spec's, after any patch.
   */
  deletedByPerson(prune: boolean): void {
    if (prune) this.deleteAll(this.inventory, 'deleted with its Kustomization:');
    this.inventory = [];
    this.set('Pending', 'deleted');
  }

  /**
   * ssa ResourceManager.DeleteAll as prune and finalize call it (kustomization_controller.go): only
   * live objects that still carry this Kustomization's owner labels (Inclusions), and none that say
   * `prune: disabled` (Exclusions). An object another Kustomization applied since is that one's.
   */
  private deleteAll(objects: readonly Obj[], verb: string): void {
    for (const old of objects) {
      const live = this.cluster.getLike(old);
      if (!live || live.metadata.labels?.[OWNER] !== this.k.name) continue;
      if (annotation(live, PRUNE) === 'disabled') this.log(`${this.k.name}: ${refOf(old)} left in place (prune: disabled)`);
      else {
        this.cluster.delete(old);
        this.log(`${this.k.name}: ${verb} ${refOf(old)}`);
      }
    }
  }

  /** The timeout elapsed: `wait` reports what was not Current, and the next interval retries. */
  timeout(): void {
    this.set('Failed', `health check failed after timeout: ${this.message}`);
  }
}

/** kustomize-controller labels what it applies with its name (the inventory owner). */
const withOwner = (o: Obj, name: string): Obj => ({
  ...o,
  metadata: { ...o.metadata, labels: { ...o.metadata.labels, [OWNER]: name } },
});
