import { leaderClusterSet, memberClusterSet } from '../objects/cluster-set';
import type { BundlePart } from './context';

/** The leader's and/or the member's ClusterSet custom resource. */
export const clusterSets: BundlePart = ({ definition, cluster, clusters }) => {
  const name = definition.metadata.name;
  const leader = definition.spec.leader;
  return [
    ...(cluster.isLeader
      ? [
          leaderClusterSet({
            name,
            namespace: leader.namespace,
            leaderClusterID: leader.clusterID,
            expectedMembers: clusters.filter((c) => c.isMember).length,
            ...(leader.clusterSetNamespace !== undefined && { statesNamespace: leader.clusterSetNamespace }),
          }),
        ]
      : []),
    ...(cluster.isMember
      ? [
          memberClusterSet({
            name,
            namespace: leader.namespace,
            leaderClusterID: leader.clusterID,
            memberNamespace: cluster.cluster.namespace,
            clusterID: cluster.clusterID,
            server: leader.server,
            secret: cluster.tokenSecretName,
          }),
        ]
      : []),
  ];
};
