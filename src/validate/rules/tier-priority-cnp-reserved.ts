import { isPlainObject } from '../../antrea/workloads/deep-merge';
import { CNP_ADMIN_TIER_PRIORITY, CNP_FEATURE_GATE } from '../builtin-tiers';
import type { ModelRule } from '../rule';

export const tierPriorityCnpReserved: ModelRule = {
  id: 'tier-priority-cnp-reserved',
  severity: 'error',
  description: "a custom Tier takes priority 220 while antrea-controller's ClusterNetworkPolicy feature gate is on",
  validate({ definition, clusters, release, report }) {
    // the gate exists in the releases whose controller knows it (v2.7); the bundle's
    // controllerConfig reaches only the clusters whose Antrea the bundle installs
    if (!release?.featureGates.controller.includes(CNP_FEATURE_GATE)) return;
    const gates = definition.spec.antrea.controllerConfig.featureGates;
    if (!isPlainObject(gates) || gates[CNP_FEATURE_GATE] !== true) return;
    if (!clusters.some((c) => c.isMember && c.cluster.install === 'full')) return;
    definition.spec.tiers.forEach((tier, i) => {
      if (tier.priority !== CNP_ADMIN_TIER_PRIORITY) return;
      report({
        path: ['spec', 'tiers', i, 'priority'],
        message: `Tier "${tier.name}" uses priority ${CNP_ADMIN_TIER_PRIORITY}, which antrea-controller reserves for upstream ClusterNetworkPolicies while its ${CNP_FEATURE_GATE} feature gate is on`,
        hint: `declare the Tier under a new name at another free priority and move its policies there (a Tier's priority cannot change), or leave the ${CNP_FEATURE_GATE} gate off`,
        related: [
          { path: ['spec', 'antrea', 'controllerConfig', 'featureGates', CNP_FEATURE_GATE], message: `the ${CNP_FEATURE_GATE} feature gate is turned on here` },
        ],
      });
    });
  },
};
