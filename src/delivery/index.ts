import { createHash } from 'node:crypto';
import { COMPILER } from '../compiler-version';
import type { ClusterSet } from '../model/clusterset';
import type { EffectiveCluster } from '../model/effective';
import type { KubeObject } from '../kube/kube-object';
import { annotateBundle } from './annotate-bundle';
import { clusterDeliveryInputs, type EngineObject } from './cluster-inputs';
import { enginesOf } from './registry';

/** One cluster's engine objects, built on demand, and the hash of what they are built from. */
export interface ClusterDelivery {
  readonly clusterID: string;
  /** sha256 (hex, 32 characters) of the compiler and the cluster's delivery inputs: equal hashes give equal objects */
  readonly hash: string;
  /** the objects, built on the first call and the same array after it */
  readonly build: () => readonly EngineObject[];
}

/** Engine objects beside the bundles (folders under dist/<clusterset>/: `argocd`, `argocd/applications`, `flux`, …). */
export interface DeliverySources {
  /** objects of the whole ClusterSet (the ApplicationSet), by folder */
  readonly clusterSet: Readonly<Record<string, readonly KubeObject[]>>;
  /** per cluster, in definition order; none when the ClusterSet has no delivery engine */
  readonly clusters: readonly ClusterDelivery[];
}

/**
 * The ClusterSet's engine objects, each cluster's built on demand from its `ClusterDeliveryInputs`
 * and keyed by their hash: manifest.json records it (an incremental synth keeps the files) and
 * `plan` compares it (plan/changed-outputs.ts).
 */
export function deliverySources(definition: ClusterSet, clusters: readonly EffectiveCluster[]): DeliverySources {
  const engines = enginesOf(definition);
  if (engines.length === 0) return { clusterSet: {}, clusters: [] };
  const inputs = clusterDeliveryInputs(definition, clusters);
  return {
    clusterSet: Object.assign({}, ...engines.map((e) => e.objects.clusterSetObjects(inputs))) as Record<string, KubeObject[]>,
    clusters: inputs.map((i) => {
      // built once: an in-memory compile reads them for the engine folders and again for manifest.json
      let built: readonly EngineObject[] | undefined;
      return {
        clusterID: i.clusterID,
        hash: createHash('sha256').update(COMPILER).update('\n').update(JSON.stringify(i)).digest('hex').slice(0, 32),
        build: () => (built ??= engines.flatMap((e) => e.objects.clusterObjects(i))),
      };
    }),
  };
}

/** Every engine object, by folder. */
export function deliveryObjects(sources: DeliverySources): Record<string, KubeObject[]> {
  return byFolder(
    sources.clusterSet,
    sources.clusters.flatMap((c) => c.build()),
  );
}

/** The ClusterSet's own engine objects and the given clusters', by folder. */
export function byFolder(clusterSet: DeliverySources['clusterSet'], objects: Iterable<EngineObject>): Record<string, KubeObject[]> {
  const folders: Record<string, KubeObject[]> = Object.fromEntries(Object.entries(clusterSet).map(([folder, list]) => [folder, [...list]]));
  for (const { folder, object } of objects) (folders[folder] ??= []).push(object);
  return folders;
}

/** Per-bundle annotations for every engine (sync waves, prune guards); returns new objects. */
export function annotateForDelivery(objects: readonly KubeObject[]): KubeObject[] {
  return annotateBundle(objects);
}

export type { EngineObject } from './cluster-inputs';
export { layerDirectory, layerDirectoryOf, LAYER_DIRECTORIES } from './layer-paths';
