import { runArgoCdHealth } from '../../health/engines';
import { annotation, conditionOf, fieldsOf, groupOf, type Obj } from '../kubernetes/kube';

export type ArgoHealth = 'Healthy' | 'Progressing' | 'Degraded' | 'Suspended' | 'Missing' | 'Unknown';
export interface HealthStatus {
  /** empty: a script that returned no status (Argo CD treats it as no verdict) */
  readonly status: ArgoHealth | '';
  readonly message?: string;
}

/** The health scripts of an Argo CD's `argocd-cm`, by override key (`group/Kind`, `Kind` for the core group, or a glob). */
export interface ArgoHealthSettings {
  readonly scripts: ReadonlyMap<string, { readonly lua: string; readonly openLibs: boolean }>;
}

export const NO_SETTINGS: ArgoHealthSettings = { scripts: new Map() };

const HEALTH = 'resource.customizations.health.';
const OPEN_LIBS = 'resource.customizations.useOpenLibs.';

/**
 * `argocd-cm` as Argo CD reads it (util/settings/settings.go: `resource.customizations.health.<group>_<Kind>`
 * and `…useOpenLibs.<group>_<Kind>`, the key turned into `group/Kind` by convertToOverrideKey: two
 * parts split at `_`, or one, the kind of the core group). Later ConfigMaps' keys win, as a
 * server-side apply of each into the one `argocd-cm` would leave them.
 */
export function argoHealthSettings(configMaps: readonly Obj[]): ArgoHealthSettings {
  const data: Record<string, string> = {};
  for (const cm of configMaps) if (cm.kind === 'ConfigMap' && cm.metadata.name === 'argocd-cm') Object.assign(data, cm.data ?? {});
  const scripts = new Map<string, { lua: string; openLibs: boolean }>();
  for (const [k, lua] of Object.entries(data)) {
    if (!k.startsWith(HEALTH)) continue;
    const groupKind = k.slice(HEALTH.length);
    const parts = groupKind.split('_');
    if (parts.length > 2 || groupKind === '') continue;
    scripts.set(parts.join('/'), { lua, openLibs: data[`${OPEN_LIBS}${groupKind}`] === 'true' });
  }
  return { scripts };
}

/** argo-cd util/glob Match: `*` matches any run of characters. */
const globMatch = (pattern: string, s: string): boolean => new RegExp(`^${pattern.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*')}$`).test(s);

/**
 * Argo CD's health of one live object (gitops-engine pkg/health/health.go GetResourceHealth):
 * Progressing "Pending deletion" while it is being deleted; then the health override
 * (argo-cd util/lua/lua.go `ResourceHealthOverrides.GetResourceHealth` → `GetHealthScript`: a
 * script of `argocd-cm` for the object's `group/Kind`, then a matching glob key, then a built-in
 * script of argo-cd's `resource_customizations`), run in Argo CD's Lua (test/health/engines.ts),
 * its error an Unknown health; then gitops-engine's built-in checks (GetHealthCheckFunc).
 * Undefined: the kind has no health, and Argo CD counts a synced object of it as done.
 */
export function argoHealth(o: Obj, settings: ArgoHealthSettings = NO_SETTINGS): HealthStatus | undefined {
  if (o.metadata.deletionTimestamp) return { status: 'Progressing', message: 'Pending deletion' };
  const group = groupOf(o.apiVersion);
  const key = group === '' ? o.kind : `${group}/${o.kind}`;
  const script = settings.scripts.get(key) ?? [...settings.scripts].find(([k, s]) => k.includes('*') && globMatch(k, key) && s.lua !== '')?.[1];
  if (script && script.lua !== '') return runArgoCdHealth(script.lua, o, script.openLibs) as HealthStatus;
  const builtInLua = BUILT_IN_SCRIPTS[key];
  if (builtInLua) return builtInLua(o);
  return BUILT_IN_CHECKS[key]?.(o);
}

/**
 * Whether Argo CD up to v3.3 counts a missing object of this kind against its Application
 * (controller/health.go setApplicationHealth at v3.3.0): an argocd-cm health override of its exact
 * `group/Kind` (lua.GetConfigMapKey; globs and argo-cd's built-in scripts do not count), or a
 * gitops-engine check (GetHealthCheckFunc).
 */
export function hasHealthCheck(o: Obj, settings: ArgoHealthSettings): boolean {
  const group = groupOf(o.apiVersion);
  const key = group === '' ? o.kind : `${group}/${o.kind}`;
  return settings.scripts.has(key) || BUILT_IN_CHECKS[key] !== undefined;
}

type Check = (o: Obj) => HealthStatus;

/**
 * argo-cd `resource_customizations/<group>/<Kind>/health.lua` for the kinds a bundle holds, read
 * and written here as their Lua decides (a built-in script runs with every library open).
 */
const BUILT_IN_SCRIPTS: Readonly<Record<string, Check>> = {
  // apiextensions.k8s.io/CustomResourceDefinition/health.lua
  'apiextensions.k8s.io/CustomResourceDefinition': (o) => {
    if (o.metadata.deletionTimestamp) return { status: 'Progressing', message: 'CRD is terminating' };
    // the script indexes obj.status.conditions: no status is a Lua error
    if (o.status === undefined || o.status === null) return { status: 'Unknown', message: "attempt to index field 'status' (a nil value)" };
    const conditions = (fieldsOf(o.status).conditions ?? []) as { type: string; status: string; reason?: string; message?: string }[];
    if (conditions.length === 0) return { status: 'Progressing', message: 'Status conditions not found' };
    let established = false;
    for (const c of conditions) {
      if (c.type === 'Terminating' && c.status === 'True') return { status: 'Progressing', message: `CRD is terminating: ${String(c.message)}` };
      if (c.type === 'NamesAccepted' && c.status === 'False') return { status: 'Degraded', message: `CRD names have not been accepted: ${String(c.message)}` };
      if (c.type === 'NonStructuralSchema' && c.status === 'True') return { status: 'Degraded', message: `Schema violations found: ${String(c.message)}` };
      if (c.type === 'Established') {
        if (c.status === 'True') established = true;
        else if (c.reason === 'Installing') return { status: 'Progressing', message: 'CRD is being installed' };
      }
    }
    return established ? { status: 'Healthy', message: 'CRD is healthy' } : { status: 'Degraded', message: 'CRD is not established' };
  },
  // external-secrets.io/ExternalSecret/health.lua: the first Ready condition decides
  'external-secrets.io/ExternalSecret': (o) => firstOf(o, 'Ready', 'Waiting for ExternalSecret'),
  // bitnami.com/SealedSecret/health.lua: the first Synced condition decides
  'bitnami.com/SealedSecret': (o) => firstOf(o, 'Synced', 'Waiting for Sealed Secret to be decrypted'),
};

function firstOf(o: Obj, type: string, waiting: string): HealthStatus {
  for (const c of (fieldsOf(o.status).conditions ?? []) as { type: string; status: string; message?: string }[]) {
    if (c.type === type && c.status === 'False') return { status: 'Degraded', message: c.message };
    if (c.type === type && c.status === 'True') return { status: 'Healthy', message: c.message };
  }
  return { status: 'Progressing', message: waiting };
}

const int = (v: unknown): number => (typeof v === 'number' ? v : 0);
/** How many entries `status.loadBalancer.ingress` has (none when absent). */
const ingressCount = (o: Obj): number => (fieldsOf(fieldsOf(o.status).loadBalancer).ingress as unknown[] | undefined)?.length ?? 0;

/** gitops-engine pkg/health: the built-in checks of GetHealthCheckFunc, by `group/Kind`. */
const BUILT_IN_CHECKS: Readonly<Record<string, Check>> = {
  // health_deployment.go getAppsv1DeploymentHealth
  'apps/Deployment': (o) => {
    const s = fieldsOf(o.status);
    if (fieldsOf(o.spec).paused) return { status: 'Suspended', message: 'Deployment is paused' };
    if (int(o.metadata.generation) > int(s.observedGeneration))
      return { status: 'Progressing', message: 'Waiting for rollout to finish: observed deployment generation less than desired generation' };
    if (conditionOf(o, 'Progressing')?.reason === 'ProgressDeadlineExceeded')
      return { status: 'Degraded', message: `Deployment "${o.metadata.name}" exceeded its progress deadline` };
    const replicas = fieldsOf(o.spec).replicas as number | undefined;
    if (replicas !== undefined && int(s.updatedReplicas) < replicas)
      return {
        status: 'Progressing',
        message: `Waiting for rollout to finish: ${int(s.updatedReplicas)} out of ${replicas} new replicas have been updated...`,
      };
    if (int(s.replicas) > int(s.updatedReplicas))
      return {
        status: 'Progressing',
        message: `Waiting for rollout to finish: ${int(s.replicas) - int(s.updatedReplicas)} old replicas are pending termination...`,
      };
    if (int(s.availableReplicas) < int(s.updatedReplicas))
      return {
        status: 'Progressing',
        message: `Waiting for rollout to finish: ${int(s.availableReplicas)} of ${int(s.updatedReplicas)} updated replicas are available...`,
      };
    return { status: 'Healthy' };
  },
  // health_statefulset.go getAppsv1StatefulSetHealth
  'apps/StatefulSet': (o) => {
    const s = fieldsOf(o.status);
    if (int(s.observedGeneration) === 0 || int(o.metadata.generation) > int(s.observedGeneration))
      return { status: 'Progressing', message: 'Waiting for statefulset spec update to be observed...' };
    const replicas = fieldsOf(o.spec).replicas as number | undefined;
    if (replicas !== undefined && int(s.readyReplicas) < replicas)
      return { status: 'Progressing', message: `Waiting for ${replicas - int(s.readyReplicas)} pods to be ready...` };
    const strategy = fieldsOf(fieldsOf(o.spec).updateStrategy) as { type?: unknown; rollingUpdate?: { partition?: number } };
    if (strategy.type === 'RollingUpdate' && strategy.rollingUpdate) {
      const partition = strategy.rollingUpdate.partition;
      if (replicas !== undefined && partition !== undefined && int(s.updatedReplicas) < replicas - partition)
        return { status: 'Progressing', message: 'Waiting for partitioned roll out to finish' };
      return { status: 'Healthy', message: `partitioned roll out complete: ${int(s.updatedReplicas)} new pods have been updated...` };
    }
    if (strategy.type === 'OnDelete') return { status: 'Healthy', message: `statefulset has ${int(s.readyReplicas)} ready pods` };
    if (s.updateRevision !== s.currentRevision) return { status: 'Progressing', message: 'waiting for statefulset rolling update to complete' };
    return { status: 'Healthy' };
  },
  // health_replicaset.go getAppsv1ReplicaSetHealth
  'apps/ReplicaSet': (o) => {
    const s = fieldsOf(o.status);
    if (int(o.metadata.generation) > int(s.observedGeneration))
      return { status: 'Progressing', message: 'Waiting for rollout to finish: observed replica set generation less than desired generation' };
    if (conditionOf(o, 'ReplicaFailure')?.status === 'True') return { status: 'Degraded', message: conditionOf(o, 'ReplicaFailure')!.message };
    const replicas = fieldsOf(o.spec).replicas as number | undefined;
    if (replicas !== undefined && int(s.availableReplicas) < replicas)
      return { status: 'Progressing', message: `Waiting for rollout to finish: ${int(s.availableReplicas)} out of ${replicas} new replicas are available...` };
    return { status: 'Healthy' };
  },
  // health_daemonset.go getAppsv1DaemonSetHealth
  'apps/DaemonSet': (o) => {
    const s = fieldsOf(o.status);
    if (int(o.metadata.generation) > int(s.observedGeneration))
      return { status: 'Progressing', message: 'Waiting for rollout to finish: observed daemon set generation less than desired generation' };
    if (fieldsOf(fieldsOf(o.spec).updateStrategy).type === 'OnDelete') return { status: 'Healthy' };
    if (int(s.updatedNumberScheduled) < int(s.desiredNumberScheduled))
      return {
        status: 'Progressing',
        message: `Waiting for daemon set "${o.metadata.name}" rollout to finish: ${int(s.updatedNumberScheduled)} out of ${int(s.desiredNumberScheduled)} new pods have been updated...`,
      };
    if (int(s.numberAvailable) < int(s.desiredNumberScheduled))
      return {
        status: 'Progressing',
        message: `Waiting for daemon set "${o.metadata.name}" rollout to finish: ${int(s.numberAvailable)} of ${int(s.desiredNumberScheduled)} updated pods are available...`,
      };
    return { status: 'Healthy' };
  },
  // health_ingress.go getIngressHealth (extensions and networking.k8s.io)
  'networking.k8s.io/Ingress': (o) => ({ status: ingressCount(o) > 0 ? 'Healthy' : 'Progressing' }),
  'extensions/Ingress': (o) => ({ status: ingressCount(o) > 0 ? 'Healthy' : 'Progressing' }),
  // health_apiservice.go getApiregistrationv1APIServiceHealth
  'apiregistration.k8s.io/APIService': (o) => {
    const available = conditionOf(o, 'Available');
    if (!available) return { status: 'Progressing', message: 'Waiting to be processed' };
    return { status: available.status === 'True' ? 'Healthy' : 'Progressing', message: `${available.reason ?? ''}: ${available.message ?? ''}` };
  },
  // health_service.go getCorev1ServiceHealth
  Service: (o) => ({ status: fieldsOf(o.spec).type === 'LoadBalancer' && !(ingressCount(o) > 0) ? 'Progressing' : 'Healthy' }),
  // health_pvc.go getCorev1PVCHealth
  PersistentVolumeClaim: (o) => {
    const phase = fieldsOf(o.status).phase as string | undefined;
    return { status: phase === 'Bound' ? 'Healthy' : phase === 'Pending' ? 'Progressing' : phase === 'Lost' ? 'Degraded' : 'Unknown' };
  },
  // health_pod.go getCorev1PodHealth (phases; a restartPolicy Always Pod in a waiting error is Degraded)
  Pod: (o) => {
    const s = fieldsOf(o.status) as { phase?: unknown; message?: string; containerStatuses?: unknown };
    const always = (fieldsOf(o.spec).restartPolicy ?? 'Always') === 'Always';
    if (always) {
      const waiting = ((s.containerStatuses ?? []) as { state?: { waiting?: { reason?: string; message?: string } } }[])
        .map((c) => c.state?.waiting)
        .filter((w) => w?.reason && (w.reason.startsWith('Err') || w.reason.endsWith('Error') || w.reason.endsWith('BackOff')));
      if (waiting.length > 0) return { status: 'Degraded', message: waiting.map((w) => w!.message ?? '').join(', ') };
    }
    switch (s.phase) {
      case 'Pending':
        return { status: 'Progressing', message: s.message };
      case 'Succeeded':
        return { status: 'Healthy', message: s.message };
      case 'Failed':
        return { status: 'Degraded', message: s.message ?? '' };
      case 'Running':
        if (!always) return { status: 'Progressing', message: s.message };
        return conditionOf(o, 'Ready')?.status === 'True' ? { status: 'Healthy', message: s.message } : { status: 'Progressing', message: s.message };
      default:
        return { status: 'Unknown', message: s.message };
    }
  },
  // health_job.go getBatchv1JobHealth: Failed, Complete and Suspended end it, whatever their status
  'batch/Job': (o) => {
    let failed = false;
    let complete = false;
    let suspended = false;
    let message: string | undefined;
    let failMessage: string | undefined;
    for (const c of (fieldsOf(o.status).conditions ?? []) as { type: string; status: string; message?: string }[]) {
      if (c.type === 'Failed') [failed, complete, failMessage] = [true, true, c.message];
      else if (c.type === 'Complete') [complete, message] = [true, c.message];
      else if (c.type === 'Suspended') [complete, message, suspended] = [true, c.message, c.status === 'True'];
    }
    if (!complete) return { status: 'Progressing', message };
    if (failed) return { status: 'Degraded', message: failMessage };
    if (suspended) return { status: 'Suspended', message: failMessage };
    return { status: 'Healthy', message };
  },
};

/** Argo CD's hook annotation: hooks count for their sync, not for the Application's health (controller/health.go). */
export const isHook = (o: Obj): boolean => annotation(o, 'argocd.argoproj.io/hook') !== undefined;

/** Whether Argo CD has a health rule for a kind (`group/Kind`, `Kind` in the core group): in `argocd-cm`, a built-in script, or gitops-engine. */
export const hasArgoHealthRule = (key: string, settings: ArgoHealthSettings = NO_SETTINGS): boolean =>
  settings.scripts.has(key) || key in BUILT_IN_SCRIPTS || key in BUILT_IN_CHECKS;

/**
 * The kinds a bundle or engine folder may hold that Argo CD has no health rule for, each checked
 * against gitops-engine pkg/health and argo-cd resource_customizations (none for crd.antrea.io,
 * multicluster.crd.antrea.io or multicluster.x-k8s.io besides what argocd-cm adds): a synced
 * object of these kinds is done at once. A test holds every kind the engines apply to this list
 * or to a rule, so a new kind is reviewed before it ships.
 */
export const NO_HEALTH_REVIEWED: readonly string[] = [
  'Namespace',
  'Node',
  'ServiceAccount',
  'Secret',
  'ConfigMap',
  'rbac.authorization.k8s.io/Role',
  'rbac.authorization.k8s.io/RoleBinding',
  'rbac.authorization.k8s.io/ClusterRole',
  'rbac.authorization.k8s.io/ClusterRoleBinding',
  'admissionregistration.k8s.io/MutatingWebhookConfiguration',
  'admissionregistration.k8s.io/ValidatingWebhookConfiguration',
  'admissionregistration.k8s.io/ValidatingAdmissionPolicy',
  'admissionregistration.k8s.io/ValidatingAdmissionPolicyBinding',
  'crd.antrea.io/Tier',
];
