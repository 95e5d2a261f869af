import type { ModelRule } from '../rule';

export const memberFlag: ModelRule = {
  id: 'member-flag',
  severity: 'error',
  description: 'member: false on a cluster that is not the leader',
  validate({ definition, clusters, report }) {
    const leader = definition.spec.leader.clusterID;
    // with no cluster of the leader's ID, leader-unknown is the one mistake to report
    if (!clusters.some((c) => c.isLeader)) return;
    for (const c of clusters) {
      if (c.cluster.member || c.isLeader) continue;
      report({
        path: [...c.path, 'member'],
        message: `cluster "${c.clusterID}" sets member: false but is not the leader "${leader}"`,
        hint: 'only a dedicated leader can be a non-member; remove "member: false" or make this cluster the leader',
      });
    }
  },
};
