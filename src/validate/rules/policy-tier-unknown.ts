import { didYouMean } from '../../model/did-you-mean';
import { BUILTIN_TIERS } from '../builtin-tiers';
import type { ModelRule } from '../rule';

export const policyTierUnknown: ModelRule = {
  id: 'policy-tier-unknown',
  severity: 'error',
  description: 'a policy names no Tier, or one that is neither built-in nor declared in spec.tiers',
  validate({ definition, report }) {
    const names = [...BUILTIN_TIERS.map((t) => t.name), ...definition.spec.tiers.map((t) => t.name)];
    definition.spec.policies.forEach((policy, i) => {
      const tier = policy.spec.tier;
      // the member looks up the Tier the spec names before it creates the policy, and nothing on the
      // way defaults one (member/acnp_resourceimport_controller.go
      // handleResImpUpdateForClusterNetworkPolicy; the leader's ResourceExport webhook, Default in
      // apis/multicluster/v1alpha1/resourceexport_webhook.go, sets labels and a finalizer only):
      // a policy without one is imported nowhere, unlike one created in a cluster (application)
      if (tier === undefined || tier === '') {
        report({
          path: tier === undefined ? ['spec', 'policies', i, 'spec'] : ['spec', 'policies', i, 'spec', 'tier'],
          message: `policy "${policy.name}" names no Tier: members look up the Tier its spec names before they create it, so it is created in none`,
          hint: 'write tier: application (what a policy created in one cluster gets by default), or another Tier',
        });
        return;
      }
      // a non-string one is policy-schema's to report
      if (typeof tier !== 'string' || names.includes(tier)) return;
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
