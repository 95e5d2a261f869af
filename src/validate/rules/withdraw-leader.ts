import type { ModelRule } from '../rule';

/**
 * `withdraw: true` takes a member's ClusterSet out of its bundle so that it leaves the leader. The
 * leader holds the common area and every member's credentials: it has nothing to withdraw from,
 * and removing its ClusterSet would disconnect every member.
 */
export const withdrawLeader: ModelRule = {
  id: 'withdraw-leader',
  severity: 'error',
  description: 'withdraw: true on the leader, which cannot leave its own ClusterSet',
  validate({ definition, report }) {
    const leader = definition.spec.leader.clusterID;
    definition.spec.clusters.forEach((c, i) => {
      if (c.clusterID !== leader || c.withdraw !== true) return;
      report({
        path: ['spec', 'clusters', i, 'withdraw'],
        message: `the leader "${leader}" is marked withdraw: true, but the leader cannot withdraw from its own ClusterSet`,
        hint: 'remove "withdraw: true"; to stop the leader taking part as a member, set "member: false" (a dedicated leader); to replace the leader, see leader-move',
      });
    });
  },
};
