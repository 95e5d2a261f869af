import type { AntreaRelease } from '../../antrea/release';
import type { ClusterSet } from '../../model/clusterset';
import type { EffectiveCluster } from '../../model/effective';
import type { KubeObject } from '../kube-object';

/** What every part of a bundle reads. */
export interface BundleContext {
  readonly definition: ClusterSet;
  /** every cluster of the set, with effective settings */
  readonly clusters: readonly EffectiveCluster[];
  /** the cluster this bundle is for */
  readonly cluster: EffectiveCluster;
  /** the Antrea release of `spec.antrea.version` */
  readonly release: AntreaRelease;
}

/** One concern of a bundle (Antrea core, ClusterSets, credentials...): the objects it contributes, as plain data. */
export type BundlePart = (ctx: BundleContext) => readonly KubeObject[];
