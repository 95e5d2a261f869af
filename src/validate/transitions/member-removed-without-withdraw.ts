import type { TransitionRule } from '../transition';

/**
 * A member removed in the same change that revokes its credentials cannot withdraw: the leader's
 * engine prunes its token, so its antrea-mc-controller can no longer delete its
 * MemberClusterAnnounce on the leader (member/clusterset_controller.go, cleanUpResources), and the
 * leader drops a silent member's announce and ResourceExports only after 24 to 36 hours
 * (leader/stale_controller.go). Marked `withdraw: true` first, the member's delivery prunes its
 * ClusterSet while the token still works. Removing the member at once still converges, with the
 * checklist's manual steps: a warning, not a refusal.
 */
export const memberRemovedWithoutWithdraw: TransitionRule = {
  id: 'member-removed-without-withdraw',
  severity: 'warning',
  description: 'a member leaves the definition without having withdrawn first (withdraw: true in an earlier change)',
  validate({ before, after, report }) {
    // a leader that leaves is a leader move, reported on its own
    if (before.definition.spec.leader.clusterID !== after.definition.spec.leader.clusterID) return;
    const kept = new Set(after.clusters.map((c) => c.clusterID));
    for (const c of before.clusters) {
      if (kept.has(c.clusterID) || !c.isMember || c.isLeader || c.withdrawing) continue;
      report({
        path: c.path,
        before: true,
        message: `member "${c.clusterID}" leaves in the same change that revokes its leader credentials, so it cannot withdraw from the leader by itself: its announce and exports stay on the leader, and the other members keep importing its Services, for up to 36 hours unless someone removes them by hand (the plan's checklist)`,
        steps: [
          `keep "${c.clusterID}" in this change with withdraw: true: its delivery prunes its ClusterSet, and its antrea-mc-controller withdraws from the leader while its token still works`,
          `once the leader no longer lists MemberClusterAnnounce member-announce-from-${c.clusterID}, remove the entry in a later change`,
        ],
      });
    }
  },
};
