import { evaluate } from '@marcbachmann/cel-js';
import { conditionOf, groupOf, type Obj } from './kube';

export type ArgoHealth = 'Healthy' | 'Progressing' | 'Degraded' | 'Suspended' | 'Missing' | 'Unknown';
export interface HealthStatus {
  readonly status: ArgoHealth;
  readonly message?: string;
}

/** A health check configured in `argocd-cm` (`resource.customizations.health.<group>_<Kind>`), by `group/Kind`. */
export type ArgoHealthOverrides = Readonly<Record<string, (o: Obj) => HealthStatus>>;

/**
 * The ClusterSet check docs/delivery.md tells Argo CD users to add: a member's is healthy once
 * Ready=True (connected), the leader's once its generation is observed.
 */
export const DOCUMENTED_ARGO_HEALTH: ArgoHealthOverrides = {
  'multicluster.crd.antrea.io/ClusterSet': (o) => {
    const member = ((o.spec?.leaders ?? []) as { server?: string }[]).some((l) => l.server !== undefined);
    if (member) return conditionOf(o, 'Ready')?.status === 'True' ? { status: 'Healthy' } : { status: 'Progressing', message: 'waiting for the mc-controller' };
    return o.status?.observedGeneration !== undefined && o.status.observedGeneration === o.metadata.generation
      ? { status: 'Healthy' }
      : { status: 'Progressing' };
  },
};

/**
 * Argo CD's health of one live object (gitops-engine pkg/health/health.go GetResourceHealth): a
 * configured override first, then the built-in checks of GetHealthCheckFunc (apps Deployment and
 * DaemonSet, core Service, apiregistration APIService, batch Job), then the Lua scripts Argo CD
 * ships for kinds a bundle holds (argo-cd resource_customizations/apiextensions.k8s.io/
 * CustomResourceDefinition, external-secrets.io/ExternalSecret, bitnami.com/SealedSecret).
 * Undefined: the kind has no health, and a synced object of it counts as done at once.
 */
export function argoHealth(o: Obj, overrides: ArgoHealthOverrides = {}): HealthStatus | undefined {
  if (o.metadata.deletionTimestamp) return { status: 'Progressing', message: 'Pending deletion' };
  const group = groupOf(o.apiVersion);
  const override = overrides[`${group}/${o.kind}`];
  if (override) return override(o);
  const s = o.status ?? {};
  switch (`${group}/${o.kind}`) {
    // health_deployment.go getAppsv1DeploymentHealth
    case 'apps/Deployment': {
      if (o.spec.paused) return { status: 'Suspended' };
      if ((o.metadata.generation ?? 1) > (s.observedGeneration ?? 0)) return { status: 'Progressing', message: 'observed generation less than desired' };
      const replicas = o.spec.replicas ?? 1;
      if ((s.updatedReplicas ?? 0) < replicas) return { status: 'Progressing', message: `${s.updatedReplicas ?? 0} of ${replicas} updated` };
      if ((s.replicas ?? 0) > (s.updatedReplicas ?? 0)) return { status: 'Progressing', message: 'old replicas pending termination' };
      if ((s.availableReplicas ?? 0) < (s.updatedReplicas ?? 0))
        return { status: 'Progressing', message: `${s.availableReplicas ?? 0} of ${s.updatedReplicas} available` };
      return { status: 'Healthy' };
    }
    // health_daemonset.go getAppsv1DaemonSetHealth
    case 'apps/DaemonSet': {
      if ((o.metadata.generation ?? 1) > (s.observedGeneration ?? 0)) return { status: 'Progressing', message: 'observed generation less than desired' };
      if (o.spec.updateStrategy?.type === 'OnDelete') return { status: 'Healthy' };
      if ((s.updatedNumberScheduled ?? 0) < (s.desiredNumberScheduled ?? 0)) return { status: 'Progressing' };
      if ((s.numberAvailable ?? 0) < (s.desiredNumberScheduled ?? 0))
        return { status: 'Progressing', message: `${s.numberAvailable ?? 0} of ${s.desiredNumberScheduled} updated pods are available` };
      return { status: 'Healthy' };
    }
    // health_service.go getCorev1ServiceHealth
    case '/Service':
      return o.spec?.type === 'LoadBalancer' && !(s.loadBalancer?.ingress?.length > 0) ? { status: 'Progressing' } : { status: 'Healthy' };
    // health_apiservice.go getApiregistrationv1APIServiceHealth: Progressing until Available=True
    case 'apiregistration.k8s.io/APIService': {
      const available = conditionOf(o, 'Available');
      if (!available) return { status: 'Progressing', message: 'Waiting to be processed' };
      return available.status === 'True' ? { status: 'Healthy' } : { status: 'Progressing', message: `${available.reason}: ${available.message}` };
    }
    // health_job.go getBatchv1JobHealth
    case 'batch/Job': {
      if (conditionOf(o, 'Failed')?.status === 'True') return { status: 'Degraded', message: conditionOf(o, 'Failed')!.message };
      if (conditionOf(o, 'Complete')?.status === 'True') return { status: 'Healthy' };
      return { status: 'Progressing' };
    }
    // resource_customizations/apiextensions.k8s.io/CustomResourceDefinition/health.lua
    case 'apiextensions.k8s.io/CustomResourceDefinition': {
      if (!s.conditions?.length) return { status: 'Progressing', message: 'Status conditions not found' };
      if (conditionOf(o, 'NamesAccepted')?.status === 'False') return { status: 'Degraded' };
      if (conditionOf(o, 'Established')?.status !== 'True') return { status: 'Degraded', message: 'CRD is not established' };
      return { status: 'Healthy' };
    }
    // resource_customizations/external-secrets.io/ExternalSecret/health.lua
    case 'external-secrets.io/ExternalSecret': {
      const ready = conditionOf(o, 'Ready');
      if (ready?.status === 'False') return { status: 'Degraded', message: ready.message };
      if (ready?.status === 'True') return { status: 'Healthy' };
      return { status: 'Progressing', message: 'Waiting for ExternalSecret' };
    }
    // resource_customizations/bitnami.com/SealedSecret/health.lua
    case 'bitnami.com/SealedSecret': {
      const synced = conditionOf(o, 'Synced');
      if (synced?.status === 'False') return { status: 'Degraded', message: synced.message };
      if (synced?.status === 'True') return { status: 'Healthy' };
      return { status: 'Progressing', message: 'Waiting for Sealed Secret to be decrypted' };
    }
    default:
      return undefined;
  }
}

/**
 * Every kind a bundle or engine folder may hold, with whether Argo CD has a health rule for it
 * (above). A test holds the kinds of every synthesized object to this list, so a new kind is
 * checked against gitops-engine and argo-cd's resource_customizations before it ships.
 */
export const ARGO_HEALTH_REVIEWED: readonly string[] = [
  '/Namespace',
  '/Node',
  '/ServiceAccount',
  '/Secret',
  '/ConfigMap',
  '/Service',
  'rbac.authorization.k8s.io/Role',
  'rbac.authorization.k8s.io/RoleBinding',
  'rbac.authorization.k8s.io/ClusterRole',
  'rbac.authorization.k8s.io/ClusterRoleBinding',
  'apps/Deployment',
  'apps/DaemonSet',
  'batch/Job',
  'apiextensions.k8s.io/CustomResourceDefinition',
  'apiregistration.k8s.io/APIService',
  'admissionregistration.k8s.io/MutatingWebhookConfiguration',
  'admissionregistration.k8s.io/ValidatingWebhookConfiguration',
  'admissionregistration.k8s.io/ValidatingAdmissionPolicy',
  'admissionregistration.k8s.io/ValidatingAdmissionPolicyBinding',
  'external-secrets.io/ExternalSecret',
  'bitnami.com/SealedSecret',
  // Antrea's custom resources: argo-cd ships no script for crd.antrea.io, multicluster.crd.antrea.io or multicluster.x-k8s.io
  'multicluster.crd.antrea.io/ClusterSet',
  'multicluster.crd.antrea.io/ResourceExport',
  'multicluster.x-k8s.io/ServiceExport',
  'crd.antrea.io/Tier',
];

export type KStatus = 'Current' | 'InProgress' | 'Failed' | 'NotFound';

/** A Kustomization's `healthCheckExprs` entry (Flux v2.5, RFC-0009). */
export interface HealthCheckExpr {
  readonly apiVersion: string;
  readonly kind: string;
  readonly current: string;
  readonly inProgress?: string;
  readonly failed?: string;
}

/**
 * kstatus as Flux's `wait` reads it (fluxcd/cli-utils pkg/kstatus/status: core.go legacy status
 * functions for Deployment, DaemonSet, Service, CRD, Job; generic.go for everything else:
 * InProgress while observedGeneration lags or Reconciling=True, Failed on Stalled=True, otherwise
 * Current), with a Kustomization's CEL expressions first for their kind (fluxcd/pkg runtime/cel
 * status reader: InProgress while observedGeneration lags, then inProgress, failed, current).
 * kstatus has no APIService rule: an APIService is Current as soon as it exists.
 */
export function kstatus(o: Obj | undefined, exprs: readonly HealthCheckExpr[] = []): { status: KStatus; message?: string } {
  if (!o) return { status: 'NotFound' };
  const s = o.status ?? {};
  const expr = exprs.find((e) => e.apiVersion === o.apiVersion && e.kind === o.kind);
  if (expr) {
    if (s.observedGeneration !== undefined && s.observedGeneration !== o.metadata.generation) return { status: 'InProgress' };
    const vars = { ...o, status: s } as Record<string, unknown>;
    try {
      if (expr.inProgress && evaluate(expr.inProgress, vars) === true) return { status: 'InProgress' };
      if (expr.failed && evaluate(expr.failed, vars) === true) return { status: 'Failed' };
      if (evaluate(expr.current, vars) === true) return { status: 'Current' };
    } catch (e) {
      return { status: 'InProgress', message: `CEL: ${(e as Error).message}` };
    }
    return { status: 'InProgress' };
  }
  const group = groupOf(o.apiVersion);
  const generationLags = s.observedGeneration !== undefined && s.observedGeneration !== o.metadata.generation;
  switch (`${group}/${o.kind}`) {
    case 'apps/Deployment': {
      if ((o.metadata.generation ?? 1) !== s.observedGeneration) return { status: 'InProgress' };
      const replicas = o.spec.replicas ?? 1;
      if ((s.updatedReplicas ?? 0) < replicas || (s.availableReplicas ?? 0) < replicas || (s.readyReplicas ?? 0) < replicas)
        return { status: 'InProgress', message: `Available: ${s.availableReplicas ?? 0}/${replicas}` };
      return { status: 'Current' };
    }
    case 'apps/DaemonSet': {
      if ((o.metadata.generation ?? 1) !== s.observedGeneration) return { status: 'InProgress' };
      const desired = s.desiredNumberScheduled ?? 0;
      if ((s.updatedNumberScheduled ?? 0) < desired || (s.numberAvailable ?? 0) < desired || (s.numberReady ?? 0) < desired)
        return { status: 'InProgress', message: `Available: ${s.numberAvailable ?? 0}/${desired}` };
      return { status: 'Current' };
    }
    case '/Service':
      return o.spec?.type === 'LoadBalancer' && !(s.loadBalancer?.ingress?.length > 0) ? { status: 'InProgress' } : { status: 'Current' };
    case 'apiextensions.k8s.io/CustomResourceDefinition':
      return conditionOf(o, 'Established')?.status === 'True' ? { status: 'Current' } : { status: 'InProgress' };
    case 'batch/Job':
      if (conditionOf(o, 'Failed')?.status === 'True') return { status: 'Failed' };
      return conditionOf(o, 'Complete')?.status === 'True' ? { status: 'Current' } : { status: 'InProgress' };
    default:
      if (generationLags) return { status: 'InProgress' };
      if (conditionOf(o, 'Reconciling')?.status === 'True') return { status: 'InProgress' };
      if (conditionOf(o, 'Stalled')?.status === 'True') return { status: 'Failed' };
      return { status: 'Current' };
  }
}
