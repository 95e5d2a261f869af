import type { CelHealthCheck } from '../../../src/delivery/flux/health-cel';
import { runFluxHealth } from '../../health/engines';
import { conditionOf, fieldsOf, groupOf, type Obj } from '../kubernetes/kube';

export type KStatus = 'Current' | 'InProgress' | 'Failed' | 'Terminating' | 'Unknown' | 'NotFound';

/** A Kustomization's `healthCheckExprs` entry (Flux v2.5, RFC-0009). */
export interface HealthCheckExpr extends CelHealthCheck {
  readonly apiVersion: string;
  readonly kind?: string;
}

export interface KStatusResult {
  readonly status: KStatus;
  readonly message?: string;
}

/**
 * What Flux's `wait` reads for one object (fluxcd/pkg ssa ResourceManager.WaitForSet, its poller's
 * status readers in kustomize-controller's order):
 * - a Kustomization's `healthCheckExprs` for the object's GroupKind (or its group, an entry
 *   without kind): fluxcd/pkg runtime/cel status_reader.go, StatusEvaluator.Evaluate, in place of
 *   every rule below (test/health/engines.ts runFluxHealth; an evaluation error is Unknown);
 * - a Job: fluxcd/pkg runtime/statusreaders/job.go jobConditions, Current only once Complete
 *   (kstatus's own says Current while it runs);
 * - anything else: fluxcd/cli-utils pkg/kstatus/status Compute: Terminating while deleted, the
 *   generic rules (generic.go: an observedGeneration that differs from the generation, then
 *   Reconciling=True InProgress, Stalled=True Failed), the rules of core.go for built-in kinds,
 *   then a `Ready` condition, else Current. An APIService has no rule: Current as it exists.
 */
export function kstatus(o: Obj | undefined, exprs: readonly HealthCheckExpr[] = []): KStatusResult {
  if (!o) return { status: 'NotFound' };
  const group = groupOf(o.apiVersion);
  const expr = exprs.find((e) => groupOf(e.apiVersion) === group && e.kind === o.kind) ?? exprs.find((e) => groupOf(e.apiVersion) === group && !e.kind);
  if (expr) return { status: runFluxHealth(expr, o) };
  if (group === 'batch' && o.kind === 'Job') return fluxJob(o);
  if (o.metadata.deletionTimestamp) return { status: 'Terminating', message: 'Resource scheduled for deletion' };
  const s = fieldsOf(o.status);
  if (typeof s.observedGeneration === 'number' && typeof o.metadata.generation === 'number' && s.observedGeneration !== o.metadata.generation)
    return {
      status: 'InProgress',
      message: `${o.kind} generation is ${o.metadata.generation}, but latest observed generation is ${String(s.observedGeneration)}`,
    };
  if (conditionOf(o, 'Reconciling')?.status === 'True') return { status: 'InProgress', message: conditionOf(o, 'Reconciling')!.message };
  if (conditionOf(o, 'Stalled')?.status === 'True') return { status: 'Failed', message: conditionOf(o, 'Stalled')!.message };
  const legacy = LEGACY[group === '' ? o.kind : `${group}/${o.kind}`];
  if (legacy) return legacy(o);
  const ready = conditionOf(o, 'Ready');
  if (ready?.status === 'True') return { status: 'Current', message: 'Resource is Ready' };
  if (ready?.status === 'False' || ready?.status === 'Unknown') return { status: 'InProgress', message: ready.message };
  return { status: 'Current', message: 'Resource is current' };
}

const num = (v: unknown, fallback: number): number => (typeof v === 'number' ? v : fallback);
const current = (message: string): KStatusResult => ({ status: 'Current', message });
const inProgress = (message: string): KStatusResult => ({ status: 'InProgress', message });

/** fluxcd/pkg runtime/statusreaders/job.go jobConditions. */
function fluxJob(o: Obj): KStatusResult {
  if (fieldsOf(o.spec).suspend === true) return current('Job is suspended');
  const s = fieldsOf(o.status);
  for (const c of (s.conditions ?? []) as { type: string; status: string }[]) {
    if (c.type === 'Complete' && c.status === 'True') return current(`Job Completed. succeeded: ${num(s.succeeded, 0)}`);
    if (c.type === 'Failed' && c.status === 'True') return { status: 'Failed', message: `Job Failed. failed: ${num(s.failed, 0)}` };
  }
  if (!s.startTime) return inProgress('Job not started');
  return inProgress(`Job in progress. success:${num(s.succeeded, 0)}, active: ${num(s.active, 0)}, failed: ${num(s.failed, 0)}`);
}

/** fluxcd/cli-utils pkg/kstatus/status/core.go legacyTypes, for the kinds a bundle may hold. */
const LEGACY: Readonly<Record<string, (o: Obj) => KStatusResult>> = {
  Service: (o) =>
    fieldsOf(o.spec).type === 'LoadBalancer' && !fieldsOf(o.spec).clusterIP
      ? inProgress('ClusterIP not set. Service type: LoadBalancer')
      : current('Service is ready'),
  Secret: () => current('Resource is always ready'),
  ConfigMap: () => current('Resource is always ready'),
  PersistentVolumeClaim: (o) =>
    fieldsOf(o.status).phase === 'Bound'
      ? current('PVC is Bound')
      : inProgress(`PVC is not Bound. phase: ${(fieldsOf(o.status).phase as string | undefined) ?? 'unknown'}`),
  'apps/Deployment': (o) => {
    const s = fieldsOf(o.status);
    // deploymentConditions: without progressDeadlineSeconds the controller writes no Progressing condition
    let progressing = fieldsOf(o.spec).progressDeadlineSeconds === undefined;
    let available = false;
    for (const c of (s.conditions ?? []) as { type: string; status: string; reason?: string }[]) {
      if (c.type === 'Progressing' && c.reason === 'ProgressDeadlineExceeded') return { status: 'Failed', message: 'Progress deadline exceeded' };
      if (c.type === 'Progressing' && c.status === 'True' && c.reason === 'NewReplicaSetAvailable') progressing = true;
      if (c.type === 'Available' && c.status === 'True') available = true;
    }
    const spec = num(fieldsOf(o.spec).replicas, 1);
    const [replicas, updated, ready, avail] = [num(s.replicas, 0), num(s.updatedReplicas, 0), num(s.readyReplicas, 0), num(s.availableReplicas, 0)];
    if (spec > replicas) return inProgress(`Replicas: ${replicas}/${spec}`);
    if (spec > updated) return inProgress(`Updated: ${updated}/${spec}`);
    if (replicas > spec) return inProgress(`Pending termination: ${replicas - spec}`);
    if (updated > avail) return inProgress(`Available: ${avail}/${updated}`);
    if (spec > ready) return inProgress(`Ready: ${ready}/${spec}`);
    if (!progressing) return inProgress('ReplicaSet not Available');
    if (!available) return inProgress('Deployment not Available');
    return current(`Deployment is available. Replicas: ${replicas}`);
  },
  'apps/DaemonSet': (o) => {
    const s = fieldsOf(o.status);
    // checkGenerationSet: the DaemonSet controller has acted only once both are set
    if (typeof o.metadata.generation !== 'number') return inProgress('DaemonSet metadata.generation not found');
    if (typeof s.observedGeneration !== 'number') return inProgress('DaemonSet status.observedGeneration not found');
    const desired = num(s.desiredNumberScheduled, -1);
    if (desired === -1) return inProgress('Missing .status.desiredNumberScheduled');
    for (const [field, label] of [
      ['currentNumberScheduled', 'Current'],
      ['updatedNumberScheduled', 'Updated'],
      ['numberAvailable', 'Available'],
      ['numberReady', 'Ready'],
    ] as const)
      if (desired > num(s[field], 0)) return inProgress(`${label}: ${num(s[field], 0)}/${desired}`);
    return current(`All replicas scheduled as expected. Replicas: ${desired}`);
  },
  'apps/StatefulSet': (o) => {
    const s = fieldsOf(o.status);
    if (fieldsOf(fieldsOf(o.spec).updateStrategy).type === 'OnDelete') return current('StatefulSet is using the ondelete update strategy');
    const spec = num(fieldsOf(o.spec).replicas, 1);
    if (spec > num(s.replicas, 0)) return inProgress(`Replicas: ${num(s.replicas, 0)}/${spec}`);
    if (spec > num(s.readyReplicas, 0)) return inProgress(`Ready: ${num(s.readyReplicas, 0)}/${spec}`);
    if (num(s.replicas, 0) > spec) return inProgress(`Pending termination: ${num(s.replicas, 0) - spec}`);
    if (spec > num(s.currentReplicas, 0)) return inProgress(`current: ${num(s.currentReplicas, 0)}/${spec}`);
    if ((s.currentRevision ?? '') !== (s.updateRevision ?? '')) return inProgress('Waiting for updated revision to match current');
    return current(`All replicas scheduled as expected. Replicas: ${num(s.replicas, 0)}`);
  },
  'apiextensions.k8s.io/CustomResourceDefinition': (o) => {
    for (const c of (fieldsOf(o.status).conditions ?? []) as { type: string; status: string; reason?: string; message?: string }[]) {
      if (c.type === 'NamesAccepted' && c.status === 'False') return { status: 'Failed', message: c.message };
      if (c.type === 'Established' && c.status === 'False' && c.reason !== 'Installing') return { status: 'Failed', message: c.message };
      if (c.type === 'Established' && c.status === 'True') return current('CRD is established');
    }
    return inProgress('Install in progress');
  },
};
