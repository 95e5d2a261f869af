import type { RevisionView } from '../transition';

/**
 * The supported way to change what a ClusterSet's webhook keeps immutable (its name, its
 * leader): take the ClusterSet down and create it again. Members first: the leader's webhook
 * refuses to delete its ClusterSet while any MemberClusterAnnounce remains
 * (clusterset_webhook.go, clusterSetValidator.Handle), and a member that deletes its ClusterSet
 * withdraws its announce and exports itself (member/clusterset_controller.go, cleanUpResources).
 */
export function dissolveSteps(before: RevisionView, last: string): string[] {
  const { name } = before.definition.metadata;
  const leader = before.clusters.find((c) => c.isLeader);
  const members = before.clusters.filter((c) => c.isMember && !c.isLeader);
  const memberList = members.map((c) => `${c.clusterID} (-n ${c.cluster.namespace})`);
  return [
    `revert this change, then remove the definition of "${name}" in a change of its own: the clusters keep running it (plan reports the orphaned delivery objects)`,
    `in every member, delete its ClusterSet: kubectl -n <namespace> delete clustersets.multicluster.crd.antrea.io ${name} in ${memberList.slice(0, 5).join(', ')}${memberList.length > 5 ? `, and ${memberList.length - 5} more` : ''}${leader?.isMember ? ` and in ${leader.clusterID} (-n ${leader.cluster.namespace})` : ''}`,
    `then on the leader ${leader?.clusterID ?? ''}: kubectl -n ${before.definition.spec.leader.namespace} delete clustersets.multicluster.crd.antrea.io ${name} (refused while any member is still announced)`,
    `${last} in a later change: the engines create the new ClusterSets, which the webhook admits`,
  ];
}
