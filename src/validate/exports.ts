import type { DataPath } from '../diagnostics/diagnostic';
import type { ClusterSet } from '../model/clusterset';
import { members, type EffectiveCluster } from '../model/effective';

export type ServiceExport = ClusterSet['spec']['services'][number];

/**
 * The members that export a Service: "*" is every member; names that are no member are skipped,
 * and so are withdrawing members, whose bundles carry no ServiceExport (model/withdraw.ts).
 */
export function exportingMembers(service: ServiceExport, clusters: readonly EffectiveCluster[]): EffectiveCluster[] {
  const all = members(clusters).filter((c) => !c.withdrawing);
  if (service.exportFrom === '*') return all;
  const listed = new Set(service.exportFrom);
  return all.filter((c) => listed.has(c.clusterID));
}

export const servicePath = (index: number, ...rest: (string | number)[]): DataPath => ['spec', 'services', index, ...rest];

/** Antrea names a ResourceImport and the imported Service after `<namespace>-<name>`. */
export const importName = (service: { namespace: string; name: string }): string => `${service.namespace}-${service.name}`;
