import type { TransitionRule } from '../transition';

/**
 * Antrea's Tier webhook refuses any update of `spec.priority` by anyone but antrea-controller
 * (pkg/controller/networkpolicy/validate.go, tierValidator.updateValidate, v2.5.3–v2.7.0): the
 * engine's apply then fails in every member until the change is reverted.
 */
export const tierPriorityImmutable: TransitionRule = {
  id: 'tier-priority-immutable',
  severity: 'error',
  description: "a Tier's priority changes; Antrea refuses to update it",
  validate({ before, after, report }) {
    const old = new Map(before.definition.spec.tiers.map((t, i) => [t.name, { tier: t, i }]));
    after.definition.spec.tiers.forEach((tier, i) => {
      const was = old.get(tier.name);
      if (!was || was.tier.priority === tier.priority) return;
      const users = after.definition.spec.policies.filter((p) => p.spec.tier === tier.name).map((p) => p.name);
      report({
        path: ['spec', 'tiers', i, 'priority'],
        message: `Tier "${tier.name}" changes its priority from ${was.tier.priority} to ${tier.priority}, which Antrea's Tier webhook refuses in every member`,
        steps: [
          `keep Tier "${tier.name}" at priority ${was.tier.priority} and declare a new Tier under another name at priority ${tier.priority}`,
          `move its policies${users.length > 0 ? ` (${users.join(', ')})` : ''} to the new Tier, in the same change or a later one`,
          `remove Tier "${tier.name}" in a later change, once no policy uses it (the webhook refuses to delete a Tier that policies still reference)`,
        ],
        related: [
          { path: ['spec', 'tiers', was.i, 'priority'], before: true, message: `the clusters run Tier "${tier.name}" at priority ${was.tier.priority}` },
        ],
      });
    });
  },
};
