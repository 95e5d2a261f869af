import { Tier } from '../constructs/tier';
import type { BundlePart } from './context';

/** On every member, the custom Tiers that replicated policies may use. */
export const tiers: BundlePart = (chart, { definition, cluster }) => {
  if (!cluster.isMember) return;
  for (const tier of definition.spec.tiers) {
    new Tier(chart, `tier-${tier.name}`, { name: tier.name, priority: tier.priority, description: tier.description });
  }
};
