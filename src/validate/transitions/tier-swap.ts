import { BUILTIN_TIERS, MAX_TIERS } from '../builtin-tiers';
import type { TransitionRule } from '../transition';

/**
 * Antrea's Tier webhook refuses to create a Tier at the priority of one that exists, and any new
 * Tier once 20 priorities are taken, the built-in Tiers' included (pkg/controller/networkpolicy/
 * validate.go, tierValidator.createValidate: "overlaps with existing Tier", "maximum number of
 * Tiers supported"). A change that swaps Tiers creates the new ones while the old ones still exist:
 * Flux applies a unit before it prunes (kustomize-controller reconcile), and Argo CD prunes only
 * what no policy holds (tierValidator.deleteValidate) and, with its retries spent, does not sync the
 * revision again (controller/appcontroller.go autoSync). So the new Tier is refused in every member
 * until someone removes the old one by hand.
 */
export const tierSwap: TransitionRule = {
  id: 'tier-swap',
  severity: 'error',
  description: 'a change adds a Tier that Antrea refuses while the Tiers it replaces still exist: the same priority, or past the 20-Tier limit',
  validate({ before, after, report }) {
    const old = new Map(before.definition.spec.tiers.map((t, i) => [t.name, { tier: t, i }]));
    const kept = new Set(after.definition.spec.tiers.map((t) => t.name));
    const removed = [...old.values()].filter(({ tier }) => !kept.has(tier.name));
    if (removed.length === 0) return;
    // what exists while the change is applied: the built-ins, every Tier of the base, then each new one
    const priorities = new Set([...BUILTIN_TIERS.map((t) => t.priority), ...before.definition.spec.tiers.map((t) => t.priority)]);
    const steps = (name: string, priority: number, replaced: readonly string[]) => [
      `keep this change's other edits, but not Tier "${name}"; move the policies of ${replaced.map((r) => `"${r}"`).join(', ')} to another Tier or remove them, in this change or an earlier one`,
      `remove ${replaced.map((r) => `Tier "${r}"`).join(', ')} in a change of its own, once every member has dropped those policies (tier-removed-in-use)`,
      `add Tier "${name}" at priority ${priority}, and the policies that use it, in a later change`,
    ];
    after.definition.spec.tiers.forEach((tier, i) => {
      if (old.has(tier.name)) return;
      const same = removed.find(({ tier: r }) => r.priority === tier.priority);
      if (same) {
        report({
          path: ['spec', 'tiers', i, 'priority'],
          message: `Tier "${tier.name}" takes priority ${tier.priority} from Tier "${same.tier.name}", which this change removes; Antrea's Tier webhook refuses a Tier at a priority another one still has, and both engines create before the old Tier is gone`,
          steps: steps(tier.name, tier.priority, [same.tier.name]),
          related: [
            { path: ['spec', 'tiers', same.i, 'priority'], before: true, message: `the clusters run Tier "${same.tier.name}" at priority ${tier.priority}` },
          ],
        });
        return;
      }
      if (priorities.has(tier.priority)) return;
      priorities.add(tier.priority);
      if (priorities.size <= MAX_TIERS) return;
      report({
        path: ['spec', 'tiers', i, 'name'],
        message: `Tier "${tier.name}" would be Tier ${priorities.size} of ${MAX_TIERS} while the ${removed.length === 1 ? 'Tier' : 'Tiers'} this change removes still exist; Antrea's Tier webhook refuses a Tier past ${MAX_TIERS}, the built-in Tiers included`,
        steps: steps(
          tier.name,
          tier.priority,
          removed.map(({ tier: r }) => r.name),
        ),
        related: removed.map(({ tier: r, i: j }) => ({
          path: ['spec', 'tiers', j, 'name'],
          before: true,
          message: `Tier "${r.name}" still exists in the clusters`,
        })),
      });
    });
  },
};
