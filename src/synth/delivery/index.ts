import type { ClusterSet } from '../../model/clusterset';
import type { EffectiveCluster } from '../../model/effective';
import type { KubeObject } from '../kube-object';

/** Engine objects beside the bundles, by folder (`argocd`, `flux`). */
export function deliveryObjects(_definition: ClusterSet, _clusters: readonly EffectiveCluster[]): Record<string, KubeObject[]> {
  return {};
}

/** Per-bundle annotations for the engines (ordering, guards); returns new objects. */
export function annotateForDelivery(objects: readonly KubeObject[]): KubeObject[] {
  return [...objects];
}
