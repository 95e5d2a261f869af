import type { TransitionRule } from '../transition';
import { dissolveSteps } from './dissolve-steps';

/**
 * The leader's cluster ID in a member's ClusterSet is immutable (clusterset_webhook.go,
 * clusterSetValidator.Handle: "the field 'clusterID' of the leader is immutable"): every member
 * that stays refuses the update, while the same change moves the leader controller away from the
 * old leader, so the members lose their leader until someone deletes their ClusterSets.
 */
export const leaderMove: TransitionRule = {
  id: 'leader-move',
  severity: 'error',
  description: "the leader moves to another cluster; each member's ClusterSet refuses a new leader clusterID",
  validate({ before, after, report }) {
    const from = before.definition.spec.leader.clusterID;
    const to = after.definition.spec.leader.clusterID;
    if (from === to || before.definition.metadata.name !== after.definition.metadata.name) return;
    const kept = new Set(after.clusters.filter((c) => c.isMember).map((c) => c.clusterID));
    const staying = before.clusters.filter((c) => c.isMember && kept.has(c.clusterID)).map((c) => c.clusterID);
    if (staying.length === 0) return;
    report({
      path: ['spec', 'leader', 'clusterID'],
      message: `the leader moves from "${from}" to "${to}": Antrea's ClusterSet webhook refuses the new leader clusterID in the members that stay (${staying.slice(0, 5).join(', ')}${staying.length > 5 ? ', …' : ''})`,
      steps: dissolveSteps(before, `add the definition back with "${to}" as the leader`, {
        leaderMoves: true,
        staying: after.clusters.map((c) => c.clusterID),
      }),
      related: [{ path: ['spec', 'leader', 'clusterID'], before: true, message: `the members' ClusterSets name "${from}" as their leader` }],
    });
  },
};
