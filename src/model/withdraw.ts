import type { ClusterSet } from './clusterset';
import { isActiveMember, type EffectiveCluster } from './effective';

type Service = ClusterSet['spec']['services'][number];

/**
 * The Services as the clusters export them while members withdraw (`withdraw: true`): a
 * withdrawing member's bundle carries no ClusterSet, so it exports nothing (its ServiceExports
 * would need it), and a Service that only withdrawing members export is imported nowhere. An
 * explicit `exportFrom` loses the withdrawing members; `"*"` stays, as it names the members that
 * remain. The same definition object when no member withdraws.
 */
export function exportsWhileWithdrawing(definition: ClusterSet, clusters: readonly EffectiveCluster[]): ClusterSet {
  const withdrawing = new Set(clusters.filter((c) => c.withdrawing).map((c) => c.clusterID));
  if (withdrawing.size === 0) return definition;
  const staying = clusters.some(isActiveMember);
  const services = definition.spec.services.flatMap((s): Service[] => {
    if (s.exportFrom === '*') return staying ? [s] : [];
    const exportFrom = s.exportFrom.filter((id) => !withdrawing.has(id));
    if (exportFrom.length === 0) return [];
    return [exportFrom.length === s.exportFrom.length ? s : { ...s, exportFrom }];
  });
  return { ...definition, spec: { ...definition.spec, services } };
}
