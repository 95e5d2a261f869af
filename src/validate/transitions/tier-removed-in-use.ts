import type { TransitionRule } from '../transition';

/**
 * Antrea's Tier webhook refuses to delete a Tier while any Antrea ClusterNetworkPolicy refers
 * to it (pkg/controller/networkpolicy/validate.go, tierValidator.deleteValidate). A member's
 * copies of replicated policies go only after the leader's export is pruned and the member's
 * mc-controller deletes them (member/acnp_resourceimport_controller.go), while the member's
 * own engine prunes the Tier on its own schedule: removed in one change, the Tier's prune is
 * refused, and Argo CD does not retry a failed automated sync of the same revision.
 */
export const tierRemovedInUse: TransitionRule = {
  id: 'tier-removed-in-use',
  severity: 'error',
  description: 'a Tier is removed in the change that removes or moves the policies using it',
  validate({ before, after, report }) {
    const kept = new Set(after.definition.spec.tiers.map((t) => t.name));
    before.definition.spec.tiers.forEach((tier, i) => {
      if (kept.has(tier.name)) return;
      const users = before.definition.spec.policies.flatMap((p, j) => (p.spec.tier === tier.name ? [{ name: p.name, j }] : []));
      if (users.length === 0) return;
      report({
        path: ['spec', 'tiers', i, 'name'],
        before: true,
        message: `Tier "${tier.name}" is removed while policies use it in the clusters (${users.map((u) => u.name).join(', ')}); Antrea refuses to delete a Tier that policies refer to`,
        steps: [
          `keep Tier "${tier.name}" in this change and remove or move its policies (${users.map((u) => u.name).join(', ')})`,
          `remove Tier "${tier.name}" in a later change, once every member has dropped those policies (kubectl get clusternetworkpolicies.crd.antrea.io shows none in Tier "${tier.name}")`,
        ],
        related: users.map((u) => ({ path: ['spec', 'policies', u.j, 'spec', 'tier'], before: true, message: `policy "${u.name}" uses Tier "${tier.name}"` })),
      });
    });
  },
};
