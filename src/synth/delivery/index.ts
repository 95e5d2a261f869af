import type { ClusterSet } from '../../model/clusterset';
import type { EffectiveCluster } from '../../model/effective';
import type { KubeObject } from '../kube-object';
import { annotateBundle } from './annotate-bundle';
import { argoCdObjects } from './argocd';
import { fluxObjects } from './flux';

/** Engine objects beside the bundles, by folder under dist/<clusterset>/ (`argocd`, `argocd/applications`, `flux`, …). */
export function deliveryObjects(definition: ClusterSet, clusters: readonly EffectiveCluster[]): Record<string, KubeObject[]> {
  return { ...argoCdObjects(definition, clusters), ...fluxObjects(definition, clusters) };
}

/** Per-bundle annotations for the engines (sync waves, prune guards); returns new objects. */
export function annotateForDelivery(objects: readonly KubeObject[]): KubeObject[] {
  return annotateBundle(objects);
}

export { layerDirectory, layerDirectoryOf, LAYER_DIRECTORIES } from './layer-paths';
