import { replicatedPolicy } from '../objects/replicated-policy';
import type { BundlePart } from './context';

/** On the leader, every replicated ClusterNetworkPolicy as a ResourceExport in the common area. */
export const replicatedPolicies: BundlePart = ({ definition, cluster }) =>
  cluster.isLeader
    ? definition.spec.policies.map((policy) =>
        replicatedPolicy({
          name: policy.name,
          clusterSet: definition.metadata.name,
          namespace: definition.spec.leader.namespace,
          spec: policy.spec,
          ...(policy.exportName !== undefined && { exportName: policy.exportName }),
        }),
      )
    : [];
