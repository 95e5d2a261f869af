import type { Network } from '../model/clusterset';
import type { EffectiveCluster } from '../model/effective';
import type { Report } from './rule';

export interface MismatchOptions {
  /** the name used in messages */
  readonly what: string;
  /** the value compared; defaults to the effective network value */
  readonly valueFor?: (c: EffectiveCluster) => unknown;
  readonly hint: (reference: EffectiveCluster) => string;
}

/**
 * A setting every cluster of a group must share. The reference value is the one most clusters
 * use (ties go to the earliest cluster); each place that writes another value is reported once,
 * with the place of the reference cluster's value as related.
 */
export function reportMismatches(clusters: readonly EffectiveCluster[], key: keyof Network, report: (r: Report) => void, options: MismatchOptions): void {
  const valueOf = options.valueFor ?? ((c: EffectiveCluster) => c.network[key]);
  const groups: { value: unknown; clusters: EffectiveCluster[] }[] = [];
  for (const c of clusters) {
    const value = valueOf(c);
    const group = groups.find((g) => g.value === value);
    if (group) group.clusters.push(c);
    else groups.push({ value, clusters: [c] });
  }
  if (groups.length < 2) return;
  // groups keep first-seen order, so a strict comparison hands ties to the earliest cluster
  const reference = groups.reduce((best, g) => (g.clusters.length > best.clusters.length ? g : best));
  const ref = reference.clusters[0]!;
  const shown = (c: EffectiveCluster) => JSON.stringify(c.network[key]);
  const reported = new Set<string>();
  for (const c of clusters) {
    if (valueOf(c) === reference.value) continue;
    const path = c.networkPath(key);
    const id = JSON.stringify(path);
    if (reported.has(id)) continue;
    reported.add(id);
    report({
      path,
      message: `${options.what} ${shown(c)} of cluster "${c.clusterID}" differs from ${shown(ref)} of cluster "${ref.clusterID}"`,
      hint: options.hint(ref),
      related: [{ path: ref.networkPath(key), message: `cluster "${ref.clusterID}" uses ${shown(ref)}` }],
    });
  }
}
