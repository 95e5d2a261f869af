import { LeaderNamespace } from '../constructs/leader-namespace';
import type { BundlePart } from './context';

/** The leader's common area Namespace, which no upstream manifest creates. */
export const leaderNamespace: BundlePart = (chart, { definition, cluster }) => {
  if (!cluster.isLeader) return;
  new LeaderNamespace(chart, 'leader-namespace', { name: definition.spec.leader.namespace });
};
