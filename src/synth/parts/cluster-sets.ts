import { LeaderClusterSet, MemberClusterSet } from '../constructs/cluster-set';
import type { BundlePart } from './context';

/** The leader's and/or the member's ClusterSet custom resource. */
export const clusterSets: BundlePart = (chart, { definition, cluster }) => {
  const name = definition.metadata.name;
  const leader = definition.spec.leader;
  if (cluster.isLeader) {
    new LeaderClusterSet(chart, 'leader-clusterset', { name, namespace: leader.namespace, leaderClusterID: leader.clusterID });
  }
  if (cluster.isMember) {
    new MemberClusterSet(chart, 'member-clusterset', {
      name,
      namespace: leader.namespace,
      leaderClusterID: leader.clusterID,
      memberNamespace: cluster.cluster.namespace,
      clusterID: cluster.clusterID,
      server: leader.server,
      secret: cluster.tokenSecretName,
    });
  }
};
