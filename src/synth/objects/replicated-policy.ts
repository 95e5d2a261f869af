import { replicatedPolicyName } from '../../model/default-names';
import type { KubeObject } from '../../kube/kube-object';

export interface ReplicatedPolicyProps {
  /** ClusterNetworkPolicy name; members create it as antrea-mc-<name> */
  readonly name: string;
  /** ClusterSet ID, part of the object name as in Antrea's user guide */
  readonly clusterSet: string;
  /** leader controller Namespace: the only place the leader reconciles ResourceExports */
  readonly namespace: string;
  /** an Antrea ClusterNetworkPolicy spec */
  readonly spec: Readonly<Record<string, unknown>>;
  /** the ResourceExport's name where a running ClusterSet chose another; default replicatedPolicyName */
  readonly exportName?: string;
}

export const ACNP_KIND = 'AntreaClusterNetworkPolicy';
/** The finalizer the leader's mutating webhook adds (domain-qualified since Antrea v2.2). */
export const RESOURCE_EXPORT_FINALIZER = 'resourceexport.antrea.io/finalizer';

/**
 * A ClusterNetworkPolicy replicated to every member: a ResourceExport in the leader's common
 * area. The labels and finalizer are exactly what the leader's mutating webhook sets on such
 * exports, so the applied object equals the stored one and no engine sees drift.
 */
export const replicatedPolicy = (props: ReplicatedPolicyProps): KubeObject => ({
  apiVersion: 'multicluster.crd.antrea.io/v1alpha1',
  kind: 'ResourceExport',
  metadata: {
    name: props.exportName ?? replicatedPolicyName(props.name, props.clusterSet),
    namespace: props.namespace,
    labels: { sourceKind: ACNP_KIND, sourceName: props.name, sourceNamespace: '' },
    finalizers: [RESOURCE_EXPORT_FINALIZER],
  },
  spec: { kind: ACNP_KIND, name: props.name, clusterNetworkPolicy: structuredClone(props.spec) },
});
