import { createHash } from 'node:crypto';
import type { EffectiveCluster } from '../model/effective';

/** Labels on the engine objects; the role label is what Argo CD's RollingSync steps select. */
export const LABELS = {
  managedBy: 'app.kubernetes.io/managed-by',
  clusterSet: 'antrea-clusterset/clusterset',
  clusterID: 'antrea-clusterset/cluster-id',
  role: 'antrea-clusterset/role',
  layer: 'antrea-clusterset/layer',
  /** on a bundle's objects that form a delivery unit outside the layers (layer-paths.ts `verify/`) */
  unit: 'antrea-clusterset/unit',
} as const;

export const MANAGED_BY = 'antrea-clusterset';

export type Role = 'leader' | 'member' | 'dual-role';

export const roleOf = (c: EffectiveCluster): Role => (c.isLeader && c.isMember ? 'dual-role' : c.isLeader ? 'leader' : 'member');

/**
 * An engine object name from its parts, at most 63 characters: both engines copy the name into
 * a label value on every object they apply (Flux `kustomize.toolkit.fluxcd.io/name`, Argo CD
 * `app.kubernetes.io/instance`), and label values stop at 63. Longer names keep a readable
 * prefix and end in a hash of the full name, so they stay unique and stable.
 */
export function engineName(...parts: string[]): string {
  const full = parts.join('-');
  if (full.length <= 63) return full;
  const hash = createHash('sha256').update(full).digest('hex').slice(0, 8);
  return `${full.slice(0, 54).replace(/[-.]+$/, '')}-${hash}`;
}

/** Repository path of a bundle: `<dist path>/<clusterset>/<clusterID>`, without `./` or trailing `/`. */
export const bundlePath = (distPath: string, clusterSet: string, clusterID: string): string =>
  [distPath.replace(/^(\.\/)+|^\.$|\/+$/g, ''), clusterSet, clusterID].filter(Boolean).join('/');
