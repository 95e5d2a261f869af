import { activeMembers, isActiveMember } from '../../model/effective';
import { leaderClusterSet, memberClusterSet } from '../objects/cluster-set';
import type { BundlePart } from './context';

/** The leader's and/or the member's ClusterSet custom resource (none for a withdrawing member). */
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
            expectedMembers: activeMembers(clusters).length,
            ...(leader.clusterSetNamespace !== undefined && { statesNamespace: leader.clusterSetNamespace }),
          }),
        ]
      : []),
    // a withdrawing member's engine prunes its ClusterSet: its antrea-mc-controller then withdraws
    // from the leader (member/clusterset_controller.go, cleanUpResources) while its token still works
    ...(isActiveMember(cluster)
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
