import { BUILTIN_TIERS, MAX_TIERS, RESERVED_TIER_PRIORITIES, builtinTierByName, builtinTierByPriority } from '../builtin-tiers';
import type { ModelRule } from '../rule';

export const tierConflict: ModelRule = {
  id: 'tier-conflict',
  severity: 'error',
  description: 'a custom Tier reuses a built-in name, a taken or reserved priority, or exceeds the Tier limit',
  validate({ definition, report }) {
    const tiers = definition.spec.tiers;
    const byName = new Map<string, number>();
    const byPriority = new Map<number, number>();
    tiers.forEach((tier, i) => {
      const at = (field: string) => ['spec', 'tiers', i, field];
      const builtin = builtinTierByName(tier.name);
      if (builtin) {
        report({
          path: at('name'),
          message: `tier "${tier.name}" has the name of the built-in Tier "${builtin.name}"`,
          hint: 'built-in Tiers exist in every cluster already: refer to them from policies without declaring them, or pick another name',
        });
      } else if (byName.has(tier.name)) {
        report({
          path: at('name'),
          message: `tier "${tier.name}" is declared twice`,
          hint: 'Tier names are unique; remove or rename one of them',
          related: [{ path: ['spec', 'tiers', byName.get(tier.name)!, 'name'], message: `tier "${tier.name}" is first declared here` }],
        });
      } else {
        byName.set(tier.name, i);
      }

      const taken = builtinTierByPriority(tier.priority);
      if (taken) {
        report({
          path: at('priority'),
          message: `tier "${tier.name}" uses priority ${tier.priority}, which belongs to the built-in Tier "${taken.name}"`,
          hint: `pick a free priority below 250 other than ${BUILTIN_TIERS.filter((t) => t.priority < 250)
            .map((t) => t.priority)
            .join(', ')}`,
        });
      } else if (RESERVED_TIER_PRIORITIES.includes(tier.priority)) {
        report({
          path: at('priority'),
          message: `tier "${tier.name}" uses priority ${tier.priority}, which Antrea reserves`,
          hint: 'priorities 250 to 255 are reserved; pick a free priority below 250',
        });
      } else if (byPriority.has(tier.priority)) {
        const other = byPriority.get(tier.priority)!;
        report({
          path: at('priority'),
          message: `tier "${tier.name}" uses priority ${tier.priority}, like tier "${tiers[other]!.name}"`,
          hint: 'every Tier needs a priority of its own',
          related: [{ path: ['spec', 'tiers', other, 'priority'], message: `tier "${tiers[other]!.name}" uses priority ${tier.priority}` }],
        });
      } else {
        byPriority.set(tier.priority, i);
      }
    });

    // the built-in Tiers count towards the limit
    const room = MAX_TIERS - BUILTIN_TIERS.length;
    if (tiers.length > room) {
      report({
        path: ['spec', 'tiers', room, 'name'],
        message: `tier "${tiers[room]!.name}" exceeds Antrea's limit of ${MAX_TIERS} Tiers: ${tiers.length} custom and ${BUILTIN_TIERS.length} built-in`,
        hint: `declare at most ${room} custom Tiers; the Tier webhook refuses this one and every later one`,
      });
    }
  },
};
