import type { Labels } from './label-selector';

/**
 * What runs in each member, as far as policy evaluation needs it: Namespaces with their labels,
 * Pods with labels (and optionally IP and container ports), Services (selector, ports,
 * optionally the ClusterIP) and the Kubernetes NetworkPolicies. Read from a
 * `ClusterSetInventory` file (read-inventory.ts) or from kubectl dumps (read-inventory.ts too).
 */
export interface Inventory {
  readonly clusters: ReadonlyMap<string, InventoryCluster>;
}

export interface InventoryCluster {
  readonly clusterID: string;
  readonly namespaces: ReadonlyMap<string, InventoryNamespace>;
  /** undefined: the inventory does not say (key absent), so Kubernetes NetworkPolicy isolation is unknown */
  readonly networkPolicies?: readonly KubernetesNetworkPolicy[];
}

export interface InventoryNamespace {
  readonly name: string;
  /** with `kubernetes.io/metadata.name`, which the API server sets on every Namespace */
  readonly labels: Labels;
  readonly pods: readonly InventoryPod[];
  readonly services: readonly InventoryService[];
}

export interface ContainerPort {
  readonly name?: string;
  readonly containerPort: number;
  readonly protocol: string;
}

export interface InventoryPod {
  readonly name: string;
  readonly labels: Labels;
  readonly ip?: string;
  /** undefined: not stated, so a named port cannot be resolved against this Pod */
  readonly ports?: readonly ContainerPort[];
}

export interface ServicePort {
  readonly name?: string;
  readonly port: number;
  readonly protocol: string;
  /** a number, a container port name, or absent (= port) */
  readonly targetPort?: number | string;
}

export interface InventoryService {
  readonly name: string;
  /** undefined: a Service without a selector (its endpoints are not known) */
  readonly selector?: Labels;
  readonly ports: readonly ServicePort[];
  readonly clusterIP?: string;
}

/** A Kubernetes NetworkPolicy (networking.k8s.io/v1) as the inventory holds it: its namespace and spec. */
export interface KubernetesNetworkPolicy {
  readonly name: string;
  readonly namespace: string;
  readonly spec: Readonly<Record<string, unknown>>;
}

export const NAMESPACE_NAME_LABEL = 'kubernetes.io/metadata.name';

/** Namespace labels as the API server keeps them: `kubernetes.io/metadata.name` is always its name. */
export const namespaceLabels = (name: string, labels: Labels): Labels => ({ ...labels, [NAMESPACE_NAME_LABEL]: name });
