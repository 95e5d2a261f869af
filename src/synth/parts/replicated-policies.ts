import { ReplicatedPolicy } from '../constructs/replicated-policy';
import type { BundlePart } from './context';

/** On the leader, every replicated ClusterNetworkPolicy as a ResourceExport in the common area. */
export const replicatedPolicies: BundlePart = (chart, { definition, cluster }) => {
  if (!cluster.isLeader) return;
  for (const policy of definition.spec.policies) {
    new ReplicatedPolicy(chart, `policy-${policy.name}`, {
      name: policy.name,
      clusterSet: definition.metadata.name,
      namespace: definition.spec.leader.namespace,
      spec: policy.spec,
    });
  }
};
