import type { ApiServer } from '../kubernetes/api-server';
import { argoHealth, hasHealthCheck, isHook, type ArgoHealthSettings, type HealthStatus } from './argocd-health';
import { missingOnlyWhenAllMissing, NEWEST_ARGOCD, type ArgoCdVersion } from './engine-versions';
import { annotation, crdSpecOf, groupOf, keyOf, refOf, type Obj } from '../kubernetes/kube';
import type { Revision } from './revision';
import { ARGOCD_MANAGER, argoCdApply } from '../kubernetes/server-side-apply';

const WAVE = 'argocd.argoproj.io/sync-wave';
const HOOK = 'argocd.argoproj.io/hook';
const HOOK_DELETE_POLICY = 'argocd.argoproj.io/hook-delete-policy';
const SYNC_OPTIONS = 'argocd.argoproj.io/sync-options';
const TRACKING = 'argocd.argoproj.io/tracking-id';

/**
 * An object as an Application applies it, with its tracking annotation (argo-cd
 * util/argo/resource_tracking.go SetAppInstance, annotation tracking), made once per object and
 * Application: the same object at every sync, so the API server knows an apply it has seen change
 * nothing (api-server.ts `unchangedBy`). Neither is ever mutated (Revision.build).
 */
function tracked(target: Obj, app: string): Obj {
  const byApp = trackedObjects.get(target) ?? new Map<string, Obj>();
  trackedObjects.set(target, byApp);
  let o = byApp.get(app);
  if (!o) {
    const id = `${app}:${groupOf(target.apiVersion)}/${target.kind}:${target.metadata.namespace ?? ''}/${target.metadata.name}`;
    o = { ...target, metadata: { ...target.metadata, annotations: { ...target.metadata.annotations, [TRACKING]: id } } };
    byApp.set(app, o);
  }
  return o;
}
const trackedObjects = new WeakMap<Obj, Map<string, Obj>>();

/** One Application as the application controller sees it: its destination and its rendered manifests. */
export interface ArgoApplication {
  readonly name: string;
  readonly labels: Readonly<Record<string, string>>;
  /** `spec.destination`: Argo CD finds the cluster by it (argo.GetDestinationCluster) */
  readonly destination: { readonly name?: string; readonly server?: string };
  readonly path: string;
  readonly syncOptions: readonly string[];
  /** `syncPolicy.retry.limit`; negative: retry without end (argo-cd docs/operator-manual/application.yaml) */
  readonly retryLimit: number;
  /** `syncPolicy.retry.refresh` (Argo CD 3.2+): a retry syncs the latest revision, not the one that failed */
  readonly retryRefresh?: boolean;
  readonly automated: boolean;
  /** `syncPolicy.automated.selfHeal` */
  readonly selfHeal: boolean;
  /** `syncPolicy.automated.prune` */
  readonly prune: boolean;
  /** sync wave of the Application object itself (an app-of-apps orders by it) */
  readonly wave: number;
  /** `metadata.finalizers`: with the resources finalizer, deleting the Application deletes what it applied */
  readonly finalizers?: readonly string[];
}

export const RESOURCES_FINALIZER = 'resources-finalizer.argocd.argoproj.io';

/** The ApplicationSet's generated Applications and its RollingSync steps (label selectors). */
export interface ApplicationSetModel {
  readonly name: string;
  readonly applications: ArgoApplication[];
  /** each step: the labels it selects (`matchExpressions` with operator In); none: AllAtOnce */
  readonly steps: readonly { key: string; values: readonly string[] }[][];
}

/** The fields of an Application's spec the application controller reads here (argoproj.io/v1alpha1). */
interface ApplicationSpec {
  destination?: { name?: string; server?: string };
  source: { path: string };
  syncPolicy?: {
    syncOptions?: string[];
    retry?: { limit?: number; refresh?: unknown };
    automated?: { prune?: unknown; selfHeal?: unknown };
  };
}

/** An Application object, or an ApplicationSet's template once rendered. */
interface ApplicationObject {
  metadata: { name: string; labels?: Record<string, string>; annotations?: Record<string, string>; finalizers?: string[] };
  spec: ApplicationSpec;
}

/** The fields of an ApplicationSet's spec the ApplicationSet controller reads here. */
interface ApplicationSetSpec {
  generators: { list?: { elements: Record<string, string>[] } }[];
  template: ApplicationObject;
  syncPolicy?: { preserveResourcesOnDeletion?: boolean };
  strategy?: { type?: string; rollingSync: { steps: { matchExpressions: { key: string; operator: string; values: string[] }[] }[] } };
}

/**
 * `{{.field}}` substitution of the list generator's elements into the template (goTemplate,
 * missingkey=error): the template's shape, its strings substituted.
 */
function render<T>(value: T, element: Record<string, string>): T {
  return substitute(value, element) as T;
}

function substitute(value: unknown, element: Record<string, string>): unknown {
  if (typeof value === 'string')
    return value.replace(/\{\{\s*\.(\w+)\s*\}\}/g, (_, k: string) => {
      if (!(k in element)) throw new Error(`ApplicationSet template: map has no entry for key "${k}"`);
      return element[k]!;
    });
  if (Array.isArray(value)) return (value as unknown[]).map((v) => substitute(v, element));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, substitute(v, element)]));
  return value;
}

const applicationOf = (o: ApplicationObject): ArgoApplication => ({
  finalizers: o.metadata.finalizers ?? [],
  name: o.metadata.name,
  labels: o.metadata.labels ?? {},
  destination: {
    ...(o.spec.destination?.name && { name: o.spec.destination.name }),
    ...(o.spec.destination?.server && { server: o.spec.destination.server }),
  },
  path: o.spec.source.path,
  syncOptions: o.spec.syncPolicy?.syncOptions ?? [],
  retryLimit: o.spec.syncPolicy?.retry?.limit ?? 0,
  retryRefresh: o.spec.syncPolicy?.retry?.refresh === true,
  automated: o.spec.syncPolicy?.automated !== undefined,
  prune: o.spec.syncPolicy?.automated?.prune === true,
  selfHeal: o.spec.syncPolicy?.automated?.selfHeal === true,
  wave: Number(o.metadata.annotations?.[WAVE] ?? 0),
});

/**
 * The Applications an ApplicationSet generates from its list generator (applicationset/generators/
 * list.go, utils.Render with goTemplate), with its RollingSync steps.
 */
export function applicationSetsIn(revision: Revision, folder: string): ApplicationSetModel[] {
  return revision
    .objectsIn(folder)
    .filter((o) => o.kind === 'ApplicationSet')
    .map((set) => {
      const spec = set.spec as ApplicationSetSpec;
      const elements = spec.generators.flatMap((g) => g.list?.elements ?? []);
      // the resources finalizer is added to a template without finalizers unless the ApplicationSet
      // preserves resources on deletion (applicationset/utils/utils.go RenderTemplateParams)
      const template =
        spec.template.metadata.finalizers?.length || spec.syncPolicy?.preserveResourcesOnDeletion
          ? spec.template
          : { ...spec.template, metadata: { ...spec.template.metadata, finalizers: [RESOURCES_FINALIZER] } };
      const applications = elements.map((e) => applicationOf(render(template, e)));
      const steps = (spec.strategy?.type === 'RollingSync' ? spec.strategy.rollingSync.steps : []).map((s) =>
        s.matchExpressions.map((m) => {
          if (m.operator !== 'In') throw new Error(`RollingSync operator ${m.operator} is not modelled`);
          return { key: m.key, values: m.values };
        }),
      );
      return { name: set.metadata.name, applications, steps };
    });
}

/** Plain Application objects of a folder (`argocd/applications/`). */
export const applicationsIn = (revision: Revision, folder: string): ArgoApplication[] =>
  revision
    .objectsIn(folder)
    .filter((o) => o.kind === 'Application')
    .map((o) => applicationOf({ metadata: o.metadata, spec: o.spec as ApplicationSpec }));

type TaskState = 'pending' | 'running' | 'succeeded' | 'failed';

interface Task {
  readonly target?: Obj;
  /** a prune task: the live object to delete */
  readonly prune?: Obj;
  readonly phase: number;
  wave: number;
  readonly hook: boolean;
  skipDryRun: boolean;
  state: TaskState;
  message?: string;
}

const PHASES = ['PreSync', 'Sync', 'PostSync'];

/** gitops-engine pkg/sync/sync_tasks.go kindOrder: within a wave, these kinds first and in this order, any other kind after them. */
const KIND_ORDER = [
  'Namespace',
  'NetworkPolicy',
  'ResourceQuota',
  'LimitRange',
  'PodSecurityPolicy',
  'PodDisruptionBudget',
  'ServiceAccount',
  'Secret',
  'SecretList',
  'ConfigMap',
  'StorageClass',
  'PersistentVolume',
  'PersistentVolumeClaim',
  'CustomResourceDefinition',
  'ClusterRole',
  'ClusterRoleList',
  'ClusterRoleBinding',
  'ClusterRoleBindingList',
  'Role',
  'RoleList',
  'RoleBinding',
  'RoleBindingList',
  'Service',
  'DaemonSet',
  'Pod',
  'ReplicationController',
  'ReplicaSet',
  'Deployment',
  'HorizontalPodAutoscaler',
  'StatefulSet',
  'Job',
  'CronJob',
  'IngressClass',
  'Ingress',
  'APIService',
];
const kindRank = (kind: string): number => {
  const i = KIND_ORDER.indexOf(kind);
  return i < 0 ? 0 : i - KIND_ORDER.length;
};

/** syncTasks.Less: phase, wave, kind order, then name. */
const taskOrder = (a: Task, b: Task): number => {
  const oa = a.target ?? a.prune!;
  const ob = b.target ?? b.prune!;
  return (
    a.phase - b.phase ||
    a.wave - b.wave ||
    kindRank(oa.kind) - kindRank(ob.kind) ||
    (oa.metadata.name < ob.metadata.name ? -1 : oa.metadata.name > ob.metadata.name ? 1 : 0)
  );
};
const options = (o: Obj | undefined): string[] => (annotation(o ?? ({ metadata: {} } as Obj), SYNC_OPTIONS) ?? '').split(',').map((s) => s.trim());

export type OperationPhase = 'Running' | 'Succeeded' | 'Failed';

export interface SyncLog {
  (message: string): void;
}

/**
 * One sync operation of one Application (gitops-engine pkg/sync/sync_context.go). `step` is one
 * call of `Sync()`: the first builds the tasks (getSyncTasks: a kind the cluster does not serve
 * fails the operation unless its CRD is among the targets, which skips its dry run) and dry-runs
 * every task client-side (applyObject forces DryRunClient, which does not see Namespaces or
 * webhooks); each call then marks running tasks done by their health (Healthy or no health:
 * succeeded; Degraded: failed; Progressing: still running), waits while any runs, fails the
 * operation once any task failed, and otherwise applies the next wave (runTasks: prune first,
 * then every task of the wave, each refusal failing the task and so the operation). After the last
 * wave is applied the operation succeeds without waiting for its health.
 */
export class ArgoSync {
  phase: OperationPhase = 'Running';
  message = '';
  private tasks: Task[] = [];
  private started = false;

  constructor(
    readonly app: ArgoApplication,
    private readonly cluster: ApiServer,
    readonly targets: readonly Obj[],
    private readonly log: SyncLog,
    private readonly health: ArgoHealthSettings,
    /** the revision of the Application's manifests this operation syncs (its `targets`) */
    readonly revision = '',
  ) {}

  /** the objects whose tasks failed (`Kind namespace/name`), as the operation's resource results list them */
  get failed(): string[] {
    return this.tasks.filter((t) => t.state === 'failed').map((t) => refOf(t.target ?? t.prune!));
  }

  /** every resource (not hook) of the operation is applied: the live objects match its revision, whatever the hooks do */
  get applied(): boolean {
    return this.started && this.tasks.every((t) => t.hook || t.prune !== undefined || t.state === 'running' || t.state === 'succeeded');
  }

  /** where the operation is: each task's state (a wave applied or a task done is progress, a wait is not) */
  get progress(): string {
    return this.tasks.map((t) => t.state).join(',');
  }

  private live(o: Obj): Obj | undefined {
    return this.cluster.getLike(o);
  }

  private buildTasks(): boolean {
    const targetKeys = new Set(this.targets.map(keyOf));
    const tasks: Task[] = this.targets.map((o) => ({
      target: o,
      phase: annotation(o, HOOK) ? PHASES.indexOf(annotation(o, HOOK)!) : 1,
      wave: Number(annotation(o, WAVE) ?? 0),
      hook: annotation(o, HOOK) !== undefined,
      skipDryRun: false,
      state: 'pending',
    }));
    // prune tasks: live objects this Application applied before that the revision no longer holds
    for (const live of this.cluster.all())
      if (annotation(live, TRACKING)?.startsWith(`${this.app.name}:`) && !targetKeys.has(keyOf(live)))
        tasks.push({ prune: live, phase: 1, wave: Number(annotation(live, WAVE) ?? 0), hook: false, skipDryRun: false, state: 'pending' });
    // prune waves run in reverse order: the prune tasks' waves are swapped symmetrically
    // (getSyncTasks); PruneLast prunes after the last wave
    const pruneWaves = [...new Set(tasks.filter((t) => t.prune).map((t) => t.wave))].sort((a, b) => a - b);
    for (const t of tasks) if (t.prune) t.wave = pruneWaves[pruneWaves.length - 1 - pruneWaves.indexOf(t.wave)]!;
    const pruneLast = this.app.syncOptions.includes('PruneLast=true');
    const lastWave = Math.max(0, ...tasks.filter((t) => t.phase === 1).map((t) => t.wave));
    for (const t of tasks) if (t.prune && (pruneLast || options(t.prune).includes('PruneLast=true'))) t.wave = lastWave + 1;
    let valid = true;
    for (const t of tasks) {
      const o = t.target ?? t.prune!;
      if (this.cluster.served(o.apiVersion, o.kind)) continue;
      const crdInSync = this.targets.some(
        (c) => c.kind === 'CustomResourceDefinition' && crdSpecOf(c).group === groupOf(o.apiVersion) && crdSpecOf(c).names.kind === o.kind,
      );
      if (crdInSync || options(o).includes('SkipDryRunOnMissingResource=true')) t.skipDryRun = true;
      else {
        t.state = 'failed';
        t.message = `the server could not find the requested resource (${o.apiVersion} ${o.kind})`;
        valid = false;
      }
    }
    this.tasks = tasks.sort(taskOrder);
    return valid;
  }

  private fail(message: string): void {
    this.phase = 'Failed';
    this.message = message;
    const failed = this.tasks.filter((t) => t.state === 'failed' && t.message).map((t) => `${refOf(t.target ?? t.prune!)}: ${String(t.message)}`);
    this.log(`${this.app.name}: sync Failed: ${message}${failed.length ? ` (${failed.join('; ')})` : ''}`);
  }

  step(): void {
    if (this.phase !== 'Running') return;
    if (!this.started) {
      if (!this.buildTasks()) return this.fail('one or more synchronization tasks are not valid');
      // the client-side dry run: kubectl apply --dry-run=client reads the live object only, so a
      // missing Namespace, a webhook or an admission policy does not show here
      this.started = true;
    }
    for (const t of this.tasks.filter((x) => x.state === 'running')) {
      const live = t.target && this.live(t.target);
      if (!live) continue;
      const h: HealthStatus | undefined = argoHealth(live, this.health);
      // getOperationPhase for hooks (no health, or an empty one, is success); a resource's own health otherwise
      if (t.hook) {
        if (!h || h.status === 'Healthy' || h.status === '') t.state = 'succeeded';
        else if (h.status === 'Degraded' || h.status === 'Unknown') [t.state, t.message] = ['failed', h.message];
      } else if (!h || h.status === 'Healthy') t.state = 'succeeded';
      else if (h.status === 'Degraded') [t.state, t.message] = ['failed', h.message];
    }
    const multiStep = new Set(this.tasks.map((t) => `${t.phase}/${t.wave}`)).size > 1;
    const running = this.tasks.filter((t) => t.state === 'running' && (multiStep || t.hook));
    if (running.length > 0) {
      this.message = `waiting for healthy state of ${running.map((t) => refOf(t.target!)).join(', ')}`;
      return;
    }
    // a pruned object a finalizer holds: the next wave waits until it is gone (Sync, prunedTasksPendingDelete)
    const pendingDelete = this.tasks.filter((t) => t.prune && this.cluster.getLike(t.prune)?.metadata.deletionTimestamp);
    if (pendingDelete.length > 0) {
      this.message = `waiting for deletion of ${pendingDelete.map((t) => refOf(t.prune!)).join(', ')}`;
      return;
    }
    if (this.tasks.some((t) => t.state === 'failed')) return this.fail('one or more synchronization tasks completed unsuccessfully');
    const pending = this.tasks.filter((t) => t.state === 'pending');
    if (pending.length === 0) return this.succeed('successfully synced (no more tasks)');
    const phase = Math.min(...pending.map((t) => t.phase));
    const wave = Math.min(...pending.filter((t) => t.phase === phase).map((t) => t.wave));
    const now = pending.filter((t) => t.phase === phase && t.wave === wave);
    const remaining = pending.filter((t) => !now.includes(t) || t.hook);
    this.message = `${String(PHASES[phase])} wave ${wave}: applying ${now.length} object(s)`;
    this.log(`${this.app.name}: ${this.message}`);
    let failed = false;
    for (const t of [...now.filter((x) => x.prune), ...now.filter((x) => !x.prune)]) {
      if (t.prune) {
        if (options(t.prune).includes('Prune=false') || !this.app.prune) {
          t.state = 'succeeded';
          t.message = 'ignored (requires pruning)';
        } else {
          this.cluster.delete(t.prune);
          t.state = 'succeeded';
          this.log(`${this.app.name}: pruned ${refOf(t.prune)}`);
        }
        continue;
      }
      const o = tracked(t.target!, this.app.name);
      // a hook from an earlier sync goes first (gitops-engine pkg/sync/hook/delete_policy.go
      // DeletePolicies: BeforeHookCreation unless another policy is set; sync_context.go runTasks
      // deletes those hooks before creating them), so every sync runs it again
      const before = t.hook ? this.live(t.target!) : undefined;
      if (before && (annotation(t.target!, HOOK_DELETE_POLICY) ?? 'BeforeHookCreation').split(',').includes('BeforeHookCreation')) this.cluster.delete(before);
      // server-side or client-side as the sync options say, as argocd-controller (server-side-apply.ts)
      const how = argoCdApply(this.app.syncOptions, o, this.live(o));
      if (how.migrated) this.cluster.put(how.migrated, 'kubectl-client-side-apply');
      const result = this.cluster.apply(o, { manager: ARGOCD_MANAGER, clientSide: how.clientSide });
      if (result.ok) t.state = 'running';
      else {
        failed = true;
        t.state = 'failed';
        t.message = result.error;
      }
    }
    if (failed) return this.fail('one or more objects failed to apply');
    if (remaining.length === 0) return this.succeed('successfully synced (all tasks run)');
  }

  private succeed(message: string): void {
    this.phase = 'Succeeded';
    this.message = message;
    this.log(`${this.app.name}: sync Succeeded`);
  }
}

/**
 * The Application's health (argo-cd controller/health.go setApplicationHealth): the worst health
 * of its live resources; a resource that does not exist yet does not count (the OutOfSync status
 * says it is missing), nor does one without a health rule.
 */
/**
 * An Application's health (argo-cd controller/health.go setApplicationHealth): the worst health of
 * its live non-hook resources; a missing one counts as the version says (engine-versions.ts
 * missingOnlyWhenAllMissing): up to v3.3 `Missing` when its kind has a health check (so one
 * missing Deployment or ClusterSet makes the Application `Missing`, one missing ConfigMap does
 * not), from v3.4 never, and the Application is `Missing` only when none of them is live.
 */
export function applicationHealth(
  cluster: ApiServer,
  targets: readonly Obj[],
  settings: ArgoHealthSettings,
  version: ArgoCdVersion = NEWEST_ARGOCD,
): HealthStatus {
  const order = ['Healthy', 'Suspended', 'Progressing', 'Missing', 'Degraded', 'Unknown'];
  let worst: HealthStatus = { status: 'Healthy' };
  const worse = (h: HealthStatus, t: Obj) => {
    if (order.indexOf(h.status) > order.indexOf(worst.status)) worst = { status: h.status, message: `${refOf(t)}: ${h.message ?? h.status}` };
  };
  const all = targets.filter((t) => !isHook(t));
  const live = all.filter((t) => cluster.getLike(t));
  for (const t of all) {
    const l = cluster.getLike(t);
    if (l) {
      const h = argoHealth(l, settings);
      if (h) worse(h, t);
    } else if (!missingOnlyWhenAllMissing(version) && hasHealthCheck(t, settings)) worse({ status: 'Missing', message: 'Missing' }, t);
  }
  if (missingOnlyWhenAllMissing(version) && all.length > 0 && live.length === 0 && order.indexOf(worst.status) < order.indexOf('Missing'))
    worst = { status: 'Missing', message: 'none of its resources exists' };
  return worst;
}

/** Synced: every target exists in the cluster (the diff's other half is out of this model). */
export const applicationSynced = (cluster: ApiServer, targets: readonly Obj[]): boolean =>
  targets.filter((t) => !annotation(t, HOOK)).every((t) => cluster.getLike(t));

/**
 * An Application deleted (its ApplicationSet no longer generates it, applicationset_controller.go
 * deleteInCluster; or an app-of-apps prunes it): with the resources finalizer, Argo CD deletes
 * every live object it manages but CRDs and those that say `Delete=false`
 * (controller/appcontroller.go finalizeApplicationDeletion, shouldBeDeleted); without it, they stay.
 */
export function deleteApplication(app: ArgoApplication, cluster: ApiServer, log: SyncLog): void {
  if (!app.finalizers?.includes(RESOURCES_FINALIZER)) return log(`${app.name}: deleted; what it applied stays (no resources finalizer)`);
  for (const live of cluster.all()) {
    if (!annotation(live, TRACKING)?.startsWith(`${app.name}:`)) continue;
    if (live.kind === 'CustomResourceDefinition' || options(live).includes('Delete=false')) continue;
    cluster.delete(live);
    log(`${app.name}: deleted with its Application: ${refOf(live)}`);
  }
}
