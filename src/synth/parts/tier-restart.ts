import { tierRestartObjects } from '../objects/tier-restart';
import type { BundlePart } from './context';

/** On every member with custom Tiers: the one-off restart of its mc-controller once they exist (objects/tier-restart.ts). */
export const tierRestart: BundlePart = ({ definition, cluster }) =>
  cluster.isMember && definition.spec.tiers.length > 0
    ? tierRestartObjects({ namespace: cluster.cluster.namespace, tiers: definition.spec.tiers, image: definition.spec.verify.image })
    : [];
