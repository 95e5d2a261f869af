import { tier } from '../objects/tier';
import type { BundlePart } from './context';

/** On every member, the custom Tiers that replicated policies may use. */
export const tiers: BundlePart = ({ definition, cluster }) =>
  cluster.isMember ? definition.spec.tiers.map((t) => tier({ name: t.name, priority: t.priority, description: t.description })) : [];
