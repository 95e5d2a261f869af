import { parse } from 'yaml';
/**
 * The few Kubernetes facts the engine replay needs: object identity, which built-in kinds an API
 * server serves, whether they are namespaced, and their resource names (what webhook and
 * admission-policy rules match on).
 */
export interface Obj {
  apiVersion: string;
  kind: string;
  metadata: {
    name: string;
    namespace?: string;
    labels?: Record<string, string>;
    annotations?: Record<string, string>;
    generation?: number;
    deletionTimestamp?: string;
    [k: string]: unknown;
  };
  // Unstructured, as the engines and controllers read objects: each reader narrows a spec or status
  // to the fields it reads (`CrdSpec`, `conditionOf`) before using them.
  spec?: unknown;
  status?: unknown;
  [k: string]: unknown;
}

/**
 * An unstructured map (a spec, a status) as fields each unknown until its reader narrows it, as
 * apimachinery's unstructured.Nested* helpers read one: `{}` when it is absent or not a map.
 */
export const fieldsOf = (v: unknown): Readonly<Record<string, unknown>> =>
  v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};

/** A condition of an object's `status.conditions` (metav1.Condition). */
export interface Condition {
  type: string;
  status: string;
  reason?: string;
  message?: string;
}

/** The fields of a container the replay's kubelet and Job runner read (core/v1 Container). */
export interface Container {
  image: string;
  command?: string[];
  args?: string[];
  env?: { name: string; value?: string; valueFrom?: { fieldRef?: { fieldPath: string } } }[];
  volumeMounts?: { name: string; mountPath: string }[];
}

/** The fields of a Pod spec the replay's scheduler, kubelet and Job runner read (core/v1 PodSpec). */
export interface PodSpec {
  serviceAccountName?: string;
  hostNetwork?: boolean;
  nodeSelector?: Record<string, string>;
  tolerations?: { key?: string; operator?: string; effect?: string }[];
  initContainers?: Container[];
  containers?: Container[];
  volumes?: { name: string; configMap?: { name: string; optional?: boolean }; secret?: { secretName: string; optional?: boolean } }[];
}

/** A workload's spec (Deployment, DaemonSet, Job): its Pod template, replicas, and a Job's backoff limit. */
export interface WorkloadSpec {
  replicas?: number;
  backoffLimit?: number;
  template: { metadata?: { labels?: Record<string, string>; annotations?: Record<string, string> }; spec: PodSpec };
}

export const workloadSpecOf = (w: Obj): WorkloadSpec => w.spec as WorkloadSpec;

/** The available Pods a workload's status counts: a Deployment's `availableReplicas`, a DaemonSet's `numberAvailable`. */
export const availablePods = (w: Obj): number => {
  const s = fieldsOf(w.status);
  return (s.availableReplicas ?? s.numberAvailable ?? 0) as number;
};

/** A Secret's `data`, by key (none: empty). */
export const secretData = (s: Obj): Readonly<Record<string, string | undefined>> => fieldsOf(s.data) as Record<string, string>;

/** The fields of a CustomResourceDefinition's spec the replay reads (apiextensions.k8s.io/v1). */
export interface CrdSpec {
  group: string;
  names: { kind: string; plural: string; singular?: string };
  scope: 'Namespaced' | 'Cluster';
  versions: { name: string; served: boolean; storage?: boolean }[];
}

/** A CustomResourceDefinition's spec, read as the API server reads it. */
export const crdSpecOf = (crd: Obj): CrdSpec => crd.spec as CrdSpec;

export const groupOf = (apiVersion: string): string => {
  // (what precedes the first `/`, without splitting: every store lookup asks it)
  const slash = apiVersion.indexOf('/');
  return slash < 0 ? '' : apiVersion.slice(0, slash);
};
export const versionOf = (apiVersion: string): string => apiVersion.split('/').pop()!;

/** `group/Kind/namespace/name`: the identity both engines and the API server use (version aside). */
export const keyOf = (o: Pick<Obj, 'apiVersion' | 'kind' | 'metadata'>): string =>
  `${groupOf(o.apiVersion)}/${o.kind}/${o.metadata.namespace ?? ''}/${o.metadata.name}`;

export const refOf = (o: Pick<Obj, 'kind' | 'metadata'>): string => `${o.kind} ${o.metadata.namespace ? `${o.metadata.namespace}/` : ''}${o.metadata.name}`;

interface BuiltIn {
  readonly namespaced: boolean;
  readonly resource: string;
  /** the first Kubernetes minor release that serves it (GA) */
  readonly since?: number;
}

/** Built-in kinds a bundle or an engine may hold, by `group/version/Kind`. */
const BUILT_INS: Readonly<Record<string, BuiltIn>> = {
  'v1/Namespace': { namespaced: false, resource: 'namespaces' },
  'v1/Node': { namespaced: false, resource: 'nodes' },
  'v1/ServiceAccount': { namespaced: true, resource: 'serviceaccounts' },
  'v1/Secret': { namespaced: true, resource: 'secrets' },
  'v1/ConfigMap': { namespaced: true, resource: 'configmaps' },
  'v1/Service': { namespaced: true, resource: 'services' },
  'v1/Pod': { namespaced: true, resource: 'pods' },
  'rbac.authorization.k8s.io/v1/Role': { namespaced: true, resource: 'roles' },
  'rbac.authorization.k8s.io/v1/RoleBinding': { namespaced: true, resource: 'rolebindings' },
  'rbac.authorization.k8s.io/v1/ClusterRole': { namespaced: false, resource: 'clusterroles' },
  'rbac.authorization.k8s.io/v1/ClusterRoleBinding': { namespaced: false, resource: 'clusterrolebindings' },
  'apps/v1/Deployment': { namespaced: true, resource: 'deployments' },
  'apps/v1/DaemonSet': { namespaced: true, resource: 'daemonsets' },
  'batch/v1/Job': { namespaced: true, resource: 'jobs' },
  'apiextensions.k8s.io/v1/CustomResourceDefinition': { namespaced: false, resource: 'customresourcedefinitions' },
  'apiregistration.k8s.io/v1/APIService': { namespaced: false, resource: 'apiservices' },
  'admissionregistration.k8s.io/v1/MutatingWebhookConfiguration': { namespaced: false, resource: 'mutatingwebhookconfigurations' },
  'admissionregistration.k8s.io/v1/ValidatingWebhookConfiguration': { namespaced: false, resource: 'validatingwebhookconfigurations' },
  'admissionregistration.k8s.io/v1/ValidatingAdmissionPolicy': { namespaced: false, resource: 'validatingadmissionpolicies', since: 30 },
  'admissionregistration.k8s.io/v1/ValidatingAdmissionPolicyBinding': { namespaced: false, resource: 'validatingadmissionpolicybindings', since: 30 },
};

export const builtInOf = (apiVersion: string, kind: string): BuiltIn | undefined => BUILT_INS[`${apiVersion}/${kind}`];

/** Every built-in kind: apiVersion, kind and its resource (what kubectl's discovery resolves a resource name against). */
export const builtInResources = (): { apiVersion: string; kind: string; resource: string; namespaced: boolean }[] =>
  Object.entries(BUILT_INS).map(([key, b]) => {
    const kind = key.slice(key.lastIndexOf('/') + 1);
    return { apiVersion: key.slice(0, key.lastIndexOf('/')), kind, resource: b.resource, namespaced: b.namespaced };
  });

export const annotation = (o: Obj, key: string): string | undefined => o.metadata.annotations?.[key];

export const clone = <T>(v: T): T => structuredClone(v);

/**
 * A small YAML document held in an object (a kubeconfig, a controller's config), parsed once per
 * text for the run: the controllers read the same one at every reconcile. Callers only read it.
 */
const parsedTexts = new Map<string, unknown>();
export function parseText(text: string): unknown {
  if (!parsedTexts.has(text)) parsedTexts.set(text, parse(text));
  return parsedTexts.get(text);
}

/** A condition of `status.conditions`, or undefined. */
export const conditionOf = (o: Obj | undefined, type: string): Condition | undefined =>
  (o?.status as { conditions?: Condition[] } | undefined)?.conditions?.find((c) => c.type === type);
