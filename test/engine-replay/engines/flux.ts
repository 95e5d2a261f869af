import { celParses } from '../../health/engines';
import type { ApiServer } from '../kubernetes/api-server';
import { kstatus, type HealthCheckExpr, type KStatus } from './kstatus';
import { annotation, groupOf, keyOf, parseText, refOf, type Obj } from '../kubernetes/kube';
import { NEWEST_FLUX, type FluxVersion } from './engine-versions';
import { postBuild, type PostBuild } from './post-build';
import type { Revision } from './revision';
import { FLUX_MANAGER, fluxCleanup, fluxSkips } from '../kubernetes/server-side-apply';

const PRUNE = 'kustomize.toolkit.fluxcd.io/prune';
/** the inventory owner's label kustomize-controller sets on what it applies (its name; the namespace label is left out here) */
export const OWNER = 'kustomize.toolkit.fluxcd.io/name';

/** A Flux Kustomization as kustomize-controller reads it. */
export interface FluxKustomization {
  readonly name: string;
  readonly path: string;
  readonly dependsOn: readonly string[];
  readonly prune: boolean;
  readonly wait: boolean;
  readonly healthCheckExprs: readonly HealthCheckExpr[];
  /** its Namespace in the cluster Flux runs in (where its kubeConfig Secret is read) */
  readonly namespace: string;
  /** `spec.kubeConfig.secretRef`: the cluster it applies to is the one that kubeconfig names; none, the cluster Flux runs in */
  readonly kubeConfig?: { readonly name: string; readonly key?: string };
  /** `kustomize.toolkit.fluxcd.io/prune: disabled` on the Kustomization itself: its parent orphans it instead of deleting it */
  readonly guarded?: boolean;
  /** `spec.postBuild`: none on ours; a user's Kustomization that wraps a bundle may set it */
  readonly postBuild?: PostBuild;
}

export function kustomizationsIn(revision: Revision, folder: string): FluxKustomization[] {
  return revision.objectsIn(folder).filter(isFluxKustomization).map(fluxKustomizationOf);
}

export const isFluxKustomization = (o: Obj): boolean => o.kind === 'Kustomization' && o.apiVersion.startsWith('kustomize.toolkit.fluxcd.io/');

/** The fields of a Kustomization's spec kustomize-controller reads here (kustomize.toolkit.fluxcd.io/v1). */
interface KustomizationSpec {
  path: string;
  dependsOn?: { name: string }[];
  prune?: unknown;
  wait?: unknown;
  healthCheckExprs?: HealthCheckExpr[];
  kubeConfig?: { secretRef?: { name: string; key?: string } };
  postBuild?: PostBuild;
}

/** A Kustomization object as kustomize-controller reads its spec. */
export function fluxKustomizationOf(o: Obj): FluxKustomization {
  const spec = o.spec as KustomizationSpec;
  return {
    name: o.metadata.name,
    path: spec.path,
    dependsOn: (spec.dependsOn ?? []).map((d) => d.name),
    prune: spec.prune === true,
    wait: spec.wait === true,
    healthCheckExprs: spec.healthCheckExprs ?? [],
    namespace: o.metadata.namespace ?? 'flux-system',
    ...(spec.kubeConfig?.secretRef && { kubeConfig: { name: spec.kubeConfig.secretRef.name, key: spec.kubeConfig.secretRef.key } }),
    guarded: annotation(o, PRUNE) === 'disabled',
    ...(spec.postBuild && { postBuild: spec.postBuild }),
  };
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

/** Where a Kustomization's objects go: resolves a URL to the cluster that answers there (the fleet). */
export interface FluxNetwork {
  reach(url: string): ApiServer | undefined;
}

/**
 * One Kustomization's reconciliation (fluxcd/kustomize-controller internal/controller/
 * kustomization_controller.go): its `healthCheckExprs` must parse (Reconcile: cel.NewStatusReader,
 * else Stalled, InvalidCELExpression, never retried); it waits until every `dependsOn` is Ready
 * (checkDependencies); it builds a client for its target (reconcile → fluxcd/pkg runtime/client
 * Impersonator.GetClient: with `spec.kubeConfig.secretRef`, the kubeconfig in that Secret of the
 * Kustomization's Namespace, key `value` or `value.yaml` unless one is named
 * (getRESTConfigFromSecret), else the cluster Flux runs in); builds its path; applies with
 * fluxcd/pkg ssa ApplyAllStaged — whose ApplyAll dry-runs every object of a stage server-side
 * before applying any, so one refusal (a missing Namespace, an unserved kind, a webhook that
 * does not answer, an admission policy) applies nothing of that stage —; prunes what left its
 * inventory unless the live object says `prune: disabled`; and with `wait` waits for every
 * applied object (checkHealth → ssa WaitForSetWithContext with kstatus and its CEL): Ready once
 * all are Current, failed early once every one is Current or Failed and some Failed, failed at
 * the timeout otherwise, and the whole reconciliation is retried at the interval.
 */
export class FluxRun {
  state: FluxState = 'Pending';
  message = '';
  inventory: Obj[] = [];
  /** steps spent waiting for health since the last apply */
  waited = 0;
  /** a terminal error: nothing retries it */
  stalled = false;
  /** the cluster its inventory was applied to */
  applied: ApiServer | undefined;

  constructor(
    readonly k: FluxKustomization,
    /** the cluster this Flux runs in */
    readonly home: ApiServer,
    private readonly network: FluxNetwork,
    private readonly revision: Revision,
    private readonly log: (m: string) => void,
    private readonly version: FluxVersion = NEWEST_FLUX,
  ) {}

  private set(state: FluxState, message: string): void {
    if (state !== this.state || message !== this.message) this.log(`${this.k.name}: ${state}: ${message}`);
    this.state = state;
    this.message = message;
  }

  /** The cluster the Kustomization applies to, or why it has none (the Ready condition's message). */
  target(): ApiServer | string {
    const ref = this.k.kubeConfig;
    if (!ref) return this.home;
    const name = `${this.k.namespace}/${ref.name}`;
    const secret = this.home.get('v1', 'Secret', this.k.namespace, ref.name);
    if (!secret) return `failed to build kube client: unable to read KubeConfig secret '${name}' error: secrets "${ref.name}" not found`;
    const data = (secret.data ?? {}) as Record<string, string>;
    const raw = ref.key ? data[ref.key] : (data.value ?? data['value.yaml']);
    if (raw === undefined) return `failed to build kube client: KubeConfig secret '${name}' does not contain a '${ref.key ?? 'value'}' key with a kubeconfig`;
    const config = parseText(atob(raw)) as {
      'current-context'?: string;
      contexts?: { name: string; context: { cluster: string } }[];
      clusters?: { name: string; cluster: { server: string } }[];
    };
    const context = config.contexts?.find((x) => x.name === config['current-context']) ?? config.contexts?.[0];
    const server = config.clusters?.find((x) => x.name === context?.context.cluster)?.cluster.server;
    if (!server) return `failed to build kube client: KubeConfig secret '${name}': invalid configuration: no server found for cluster`;
    return this.network.reach(server) ?? `dial tcp: lookup ${server.replace(/^https?:\/\//, '')}: no such host`;
  }

  /** One reconciliation attempt (a retry of a Failed one is the same call). */
  reconcile(ready: (name: string) => boolean): void {
    if (this.stalled) return;
    const invalid = invalidExpression(this.k.healthCheckExprs);
    if (invalid) {
      this.stalled = true;
      return this.set('Failed', `InvalidCELExpression: TerminalError: ${invalid}`);
    }
    const blocked = this.k.dependsOn.filter((d) => !ready(d));
    if (blocked.length > 0) return this.set('Pending', `dependency '${blocked[0]!}' is not ready`);
    const cluster = this.target();
    if (typeof cluster === 'string') return this.set('Failed', cluster);
    let objects: Obj[];
    try {
      objects = this.revision.build(this.k.path);
    } catch (e) {
      return this.set('Failed', `kustomize build failed: ${(e as Error).message}`);
    }
    if (this.k.postBuild) {
      const substituted = postBuild(objects, this.k.postBuild, this.k.namespace, this.home, this.version);
      if (typeof substituted === 'string') return this.set('Failed', substituted);
      objects = substituted;
    }
    const stageOne = objects.filter(isClusterDefinition).sort(applyOrder);
    const stageTwo = objects.filter((o) => !isClusterDefinition(o)).sort(applyOrder);
    for (const stage of [stageOne, stageTwo]) {
      const refusals = stage.map((o) => ({ o, r: cluster.apply(o, { dryRun: true, manager: FLUX_MANAGER }) })).filter((x) => !x.r.ok);
      if (refusals.length > 0)
        return this.set(
          'Failed',
          `${refOf(refusals[0]!.o)} dry-run failed: ${(refusals[0]!.r as { error: string }).error}${refusals.length > 1 ? ` (and ${refusals.length - 1} more)` : ''}`,
        );
      for (const o of stage) {
        // server-side apply as kustomize-controller, after its clean-up of kubectl's managers (server-side-apply.ts)
        const desired = withOwner(o, this.k.name);
        const live = cluster.getLike(desired);
        if (fluxSkips(desired, live)) continue;
        const cleaned = fluxCleanup(desired, live);
        if (cleaned) cluster.put(cleaned, FLUX_MANAGER);
        const r = cluster.apply(desired, { manager: FLUX_MANAGER });
        if (!r.ok) return this.set('Failed', `${refOf(o)} apply failed: ${r.error}`);
      }
    }
    const keys = new Set(objects.map(keyOf));
    // prune goes through the same client: the inventory records no cluster
    this.applied = cluster;
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

  /** ssa ResourceManager.WaitForSetWithContext (manager_wait.go): Current for all, or terminal once all are Current or Failed. */
  checkHealth(): void {
    const cluster = this.applied!;
    const statuses = this.inventory.map((o) => ({ o, s: kstatus(cluster.getLike(o), this.k.healthCheckExprs) }));
    const notCurrent = statuses.filter((x) => x.s.status !== 'Current');
    if (notCurrent.length === 0) return this.set('Ready', 'Applied revision; health checks passed');
    if (notCurrent.every((x) => x.s.status === 'Failed'))
      return this.set('Failed', `health check failed: failed early due to stalled resources: [${describe(notCurrent)}]`);
    this.waited++;
    this.message = `waiting for ${describe(notCurrent)}`;
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
    const target = this.target();
    const cluster = this.applied ?? (typeof target === 'string' ? undefined : target);
    if (!cluster) return;
    for (const old of objects) {
      const live = cluster.getLike(old);
      if (!live || live.metadata.labels?.[OWNER] !== this.k.name) continue;
      if (annotation(live, PRUNE) === 'disabled') this.log(`${this.k.name}: ${refOf(old)} left in place (prune: disabled)`);
      else {
        cluster.delete(old);
        this.log(`${this.k.name}: ${verb} ${refOf(old)}`);
      }
    }
  }

  /** The timeout elapsed: `wait` reports what was not Current, and the next interval retries. */
  timeout(): void {
    this.set('Failed', `health check failed after timeout: ${this.message}`);
  }
}

const describe = (list: readonly { o: Obj; s: { status: KStatus } }[]): string => list.map((x) => `${refOf(x.o)} (${x.s.status})`).join(', ');

/** cel.NewStatusReader: every entry needs a `current`, every expression must parse, one entry per GroupKind. */
function invalidExpression(exprs: readonly HealthCheckExpr[]): string | undefined {
  const seen = new Set<string>();
  for (const [i, e] of exprs.entries()) {
    const gk = `${groupOf(e.apiVersion)}/${e.kind ?? ''}`;
    if (seen.has(gk)) return `duplicate custom health check for GroupKind ${gk} at healthchecks[${i}]`;
    seen.add(gk);
    if (!e.current) return `failed to create custom status evaluator for healthchecks[${i}]: expression Current not specified`;
    for (const expr of [e.current, e.failed, e.inProgress])
      if (expr !== undefined && expr !== '' && !celParses(expr))
        return `failed to create custom status evaluator for healthchecks[${i}]: failed to parse the CEL expression '${expr}'`;
  }
  return undefined;
}

/** kustomize-controller labels what it applies with its name (the inventory owner). */
const withOwner = (o: Obj, name: string): Obj => {
  const byName = owned.get(o) ?? new Map<string, Obj>();
  owned.set(o, byName);
  let desired = byName.get(name);
  if (!desired) byName.set(name, (desired = { ...o, metadata: { ...o.metadata, labels: { ...o.metadata.labels, [OWNER]: name } } }));
  return desired;
};
/**
 * Each object of a build with its owner label, made once: the same object at every reconcile, so
 * the API server knows an apply it has seen change nothing (api-server.ts `unchangedBy`). Neither
 * is ever mutated (Revision.build).
 */
const owned = new WeakMap<Obj, Map<string, Obj>>();
