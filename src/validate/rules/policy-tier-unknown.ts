import { didYouMean } from '../../model/did-you-mean';
import { BUILTIN_TIERS } from '../builtin-tiers';
import type { ModelRule } from '../rule';

export const policyTierUnknown: ModelRule = {
  id: 'policy-tier-unknown',
  severity: 'error',
  description: 'a policy names a Tier that is neither built-in nor declared in spec.tiers',
  check({ definition, report }) {
    const names = [...BUILTIN_TIERS.map((t) => t.name), ...definition.spec.tiers.map((t) => t.name)];
    definition.spec.policies.forEach((policy, i) => {
      const tier = policy.spec.tier;
      // an absent tier means "application"; a non-string one is policy-schema's to report
      if (typeof tier !== 'string' || tier === '' || names.includes(tier)) return;
      const path = ['spec', 'policies', i, 'spec', 'tier'];
      // the member mc-controller looks the Tier up by its exact object name before it creates the
      // policy, so "SecurityOps" (which Antrea's own webhook would map) is not found there
      const sameLetters = names.find((n) => n.toLowerCase() === tier.toLowerCase());
      if (sameLetters) {
        report({
          path,
          message: `policy "${policy.name}" refers to Tier "${tier}", which members only know as "${sameLetters}"`,
          hint: `write tier: ${sameLetters}; members look Tiers up by their exact name and skip the policy otherwise`,
        });
        return;
      }
      const suggestion = didYouMean(tier, names);
      report({
        path,
        message: `policy "${policy.name}" refers to Tier "${tier}", which is neither built-in nor declared in spec.tiers`,
        hint: suggestion ? `did you mean "${suggestion}"?` : `declare it under spec.tiers or use one of: ${names.map((n) => `"${n}"`).join(', ')}`,
      });
    });
  },
};
