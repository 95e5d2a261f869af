import { isPlainObject } from '../antrea/workloads/deep-merge';
import type { KubeObject } from '../kube/kube-object';
import { groupKind } from './live-cluster';
import type { LiveDump, LiveObject } from './read-dump';
import { FLUX_PER_CLUSTER_FOLDER } from '../delivery/flux/kustomizations';

/** An engine object synth writes beside the bundles, and its folder under dist/<clusterset>/. */
export interface EngineObject {
  readonly folder: string;
  readonly object: KubeObject;
}

/** What drift says of one engine object that does not sync: in ClusterSet words, and the object behind it. */
export interface EngineFinding {
  /** the cluster whose delivery it is: its bundle's folder in the object's path */
  readonly clusterID: string;
  readonly message: string;
  readonly object: string;
}

const APPLICATION = 'argoproj.io/Application';
const KUSTOMIZATION = 'kustomize.toolkit.fluxcd.io/Kustomization';
const ENGINE_GROUP_KINDS = new Set([APPLICATION, KUSTOMIZATION]);

type Obj = Record<string, unknown>;
const at = (o: unknown, ...path: string[]): unknown => path.reduce<unknown>((v, k) => (isPlainObject(v) ? v[k] : undefined), o);
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const key = (kind: string, namespace: string | undefined, name: string) => `${kind}\0${namespace ?? ''}\0${name}`;
const where = (o: KubeObject) => `${o.metadata.namespace ?? ''}/${o.metadata.name}`;

/** A per-cluster Flux's folder, `<FLUX_PER_CLUSTER_FOLDER>/<clusterID>` (delivery/flux/kustomizations.ts): its objects run in that cluster. */
const ownCluster = (folder: string): string | undefined =>
  folder.startsWith(`${FLUX_PER_CLUSTER_FOLDER}/`) ? folder.slice(FLUX_PER_CLUSTER_FOLDER.length + 1) || undefined : undefined;

/**
 * The cluster an engine object delivers and what of it: its path is `<dist>/<clusterset>/<clusterID>`
 * and a unit folder under it (delivery/engine-names.ts `bundlePath`): `3-workloads`, `exports/demo`,
 * or the bundle.
 */
function delivered(o: KubeObject, clusterSet: string, clusterIDs: ReadonlySet<string>): { clusterID: string; part: string } | undefined {
  const path = str(at(o, 'spec', 'path')) ?? str(at(o, 'spec', 'source', 'path')) ?? '';
  const parts = path.split('/');
  const i = parts.findIndex((p, j) => p === clusterSet && clusterIDs.has(parts[j + 1] ?? ''));
  if (i === -1) return undefined;
  return { clusterID: parts[i + 1]!, part: parts.slice(i + 2).join('/') || 'bundle' };
}

/** A dump holds engine objects of these: any of the names synth gives them. */
export function holdsEngineObjects(dump: LiveDump, expected: readonly EngineObject[]): boolean {
  const names = new Set(expected.map((e) => key(groupKind(e.object), e.object.metadata.namespace, e.object.metadata.name)));
  return dump.objects.some(({ object: o }) => ENGINE_GROUP_KINDS.has(groupKind(o)) && names.has(key(groupKind(o), o.metadata.namespace, o.metadata.name)));
}

/**
 * The engine objects of a ClusterSet that do not sync, judged where the engine runs: a per-cluster
 * Flux's in that cluster's dump (once it holds any Kustomization: its Flux was read), a hub Flux's
 * or Argo CD's in the dumps that hold any of them (the hub, the Argo CD cluster, in or outside the
 * definition). Where no dump shows the engine was read (older dumps, a CRD not served), nothing is said.
 */
export function engineFindings(
  clusterSet: string,
  clusterIDs: ReadonlySet<string>,
  expected: readonly EngineObject[],
  dumps: readonly LiveDump[],
  nameOf: (d: LiveDump) => string,
): EngineFinding[] {
  const engine = expected.filter((e) => ENGINE_GROUP_KINDS.has(groupKind(e.object)));
  const shared = dumps.filter((d) => holdsEngineObjects(d, engine));
  const out: EngineFinding[] = [];
  for (const { folder, object } of engine) {
    const of = delivered(object, clusterSet, clusterIDs);
    if (of === undefined) continue;
    const { clusterID } = of;
    const own = ownCluster(folder);
    const candidates = own === undefined ? shared : dumps.filter((d) => nameOf(d) === own && d.objects.some((l) => groupKind(l.object) === KUSTOMIZATION));
    if (candidates.length === 0) continue;
    const kind = groupKind(object);
    const found = candidates.flatMap((d) => {
      const l = d.objects.find(
        (x) => groupKind(x.object) === kind && x.object.metadata.namespace === object.metadata.namespace && x.object.metadata.name === object.metadata.name,
      );
      return l ? [{ dump: d, live: l }] : [];
    })[0];
    const what = `${clusterID}'s ${of.part}`;
    const title = kind === APPLICATION ? 'Argo CD' : 'Flux';
    if (!found) {
      out.push({
        clusterID,
        message: `${title} does not ${kind === APPLICATION ? 'sync' : 'apply'} ${what}: its ${object.kind} ${where(object)} is missing on ${candidates.map(nameOf).join(', ')}`,
        object: `missing ${object.kind} ${where(object)}`,
      });
      continue;
    }
    const judged = kind === APPLICATION ? judgeApplication(found.live, what) : judgeKustomization(found.live, what);
    if (judged) out.push({ clusterID, message: judged.message, object: `${object.kind} ${where(object)} (${judged.fields}) in ${found.dump.file}` });
  }
  return out;
}

/** The Ready condition Flux sets (fluxcd/pkg apis/meta `ReadyCondition`). */
function readyOf(o: KubeObject): Obj | undefined {
  const conditions = at(o, 'status', 'conditions');
  return Array.isArray(conditions) ? (conditions.find((c) => isPlainObject(c) && c.type === 'Ready') as Obj | undefined) : undefined;
}

/**
 * Reasons of Ready False that are not a failed apply (kustomize-controller api/v1
 * `HealthCheckFailedReason`, `DependencyNotReadyReason`): `reconcile` marks HealthCheckFailed
 * after it applied (the status of what it applied, which is not drift), and DependencyNotReady
 * while an earlier layer is not Ready (that layer's own line says why, if it is drift).
 */
const NOT_A_FAILED_APPLY = new Set(['HealthCheckFailed', 'DependencyNotReady']);

/**
 * Flux's rule (kustomize-controller api/v1/kustomization_types.go, internal/controller/
 * kustomization_controller.go `reconcile`): `spec.suspend` stops every reconcile; Ready False
 * with another reason is a failed build, apply or prune, and `lastAttemptedRevision` (set before
 * the apply) runs ahead of `lastAppliedRevision` (set only once it succeeded); Ready Unknown
 * (Progressing) is a reconcile in flight, not drift.
 */
function judgeKustomization({ object: o }: LiveObject, what: string): { message: string; fields: string } | undefined {
  if (at(o, 'spec', 'suspend') === true)
    return { message: `Flux's Kustomization ${where(o)} is suspended: Flux does not apply ${what}`, fields: 'spec.suspend: true' };
  const ready = readyOf(o);
  if (ready?.status !== 'False' || NOT_A_FAILED_APPLY.has(str(ready.reason) ?? '')) return undefined;
  const applied = str(at(o, 'status', 'lastAppliedRevision'));
  const attempted = str(at(o, 'status', 'lastAttemptedRevision'));
  const runs = attempted !== undefined && attempted !== applied ? `: it runs ${applied ?? 'no revision'}, not ${attempted}` : '';
  return {
    message: `Flux's last apply of ${what} failed: Kustomization ${where(o)} is not Ready (${str(ready.reason) ?? 'no reason'}: ${str(ready.message) ?? ''})${runs}`,
    fields: 'status.conditions[Ready]: False',
  };
}

/** An operation in flight (argo-cd pkg/apis/application/v1alpha1 `OperationRunning`, `OperationTerminating`). */
const IN_FLIGHT = new Set(['Running', 'Terminating']);
/** An operation that ended without success (`OperationFailed`, `OperationError`). */
const FAILED = new Set(['Failed', 'Error']);

/**
 * Argo CD's rule (pkg/apis/application/v1alpha1/types.go `SyncStatusCode`, `OperationPhase`,
 * `SyncPolicyAutomated`; controller/appcontroller.go `autoSync`): only an automated sync policy
 * (not `enabled: false`) syncs an OutOfSync Application, except one an ApplicationSet's RollingSync
 * owns, which turns automated sync off and syncs it itself (docs/operator-manual/applicationset/
 * Progressive-Syncs.md); `autoSync` does not try again a revision whose sync failed; sync status
 * Unknown with a ComparisonError condition compares nothing, so syncs nothing; an operation
 * Running is a sync in flight; health alone (Degraded, Progressing) is the status of what it applied.
 */
function judgeApplication({ object: o }: LiveObject, what: string): { message: string; fields: string } | undefined {
  const sync = str(at(o, 'status', 'sync', 'status'));
  const phase = str(at(o, 'status', 'operationState', 'phase'));
  if (sync === 'Synced' || (phase !== undefined && IN_FLIGHT.has(phase))) return undefined;
  const automated = at(o, 'spec', 'syncPolicy', 'automated');
  const off = !isPlainObject(automated)
    ? 'spec.syncPolicy.automated: absent'
    : automated.enabled === false
      ? 'spec.syncPolicy.automated.enabled: false'
      : undefined;
  const attempted = str(at(o, 'status', 'operationState', 'syncResult', 'revision')) ?? str(at(o, 'status', 'operationState', 'operation', 'sync', 'revision'));
  const desired = str(at(o, 'status', 'sync', 'revision'));
  // automated sync tries a new revision again; the failed one it does not
  if (phase !== undefined && FAILED.has(phase) && (off !== undefined || attempted === undefined || attempted === desired))
    return {
      message: `Argo CD's last sync of ${what} failed: Application ${where(o)}: ${str(at(o, 'status', 'operationState', 'message')) ?? phase}`,
      fields: `status.sync.status: ${sync ?? 'none'}; status.operationState.phase: ${phase}`,
    };
  // no comparison, no sync: the manifests could not be generated or compared (`ApplicationConditionComparisonError`)
  const conditions = at(o, 'status', 'conditions');
  const comparison = Array.isArray(conditions) ? (conditions.find((c) => isPlainObject(c) && c.type === 'ComparisonError') as Obj | undefined) : undefined;
  if (sync === 'Unknown' && comparison)
    return {
      message: `Argo CD cannot compare ${what} with git: Application ${where(o)}: ${str(comparison.message) ?? 'ComparisonError'}`,
      fields: 'status.sync.status: Unknown; status.conditions[ComparisonError]',
    };
  const owners = at(o, 'metadata', 'ownerReferences');
  const rolling = Array.isArray(owners) && owners.some((r) => isPlainObject(r) && r.kind === 'ApplicationSet' && str(r.apiVersion)?.startsWith('argoproj.io/'));
  if (sync === 'OutOfSync' && off !== undefined && !rolling)
    return {
      message: `Argo CD does not sync ${what}: Application ${where(o)} is OutOfSync (automated sync off)`,
      fields: `status.sync.status: OutOfSync; ${off}`,
    };
  return undefined;
}
