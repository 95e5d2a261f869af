import { LAYERS, layerOf, type Layer } from '../layers';
import type { KubeObject } from '../kube-object';

/**
 * One sub-kustomization per apply layer inside a bundle, e.g. `2-webhooks/`. The bundle root's
 * kustomization lists these directories, so `kubectl apply -k <bundle>` and Argo CD's kustomize
 * source still get everything, while a Flux Kustomization per layer points at one directory.
 * The files live inside their layer's directory because kustomize refuses files outside a
 * kustomization root (LoadRestrictionsRootOnly, the default of kubectl and Argo CD).
 */
export const layerDirectory = (layer: Layer): string => `${LAYERS.indexOf(layer)}-${layer}`;

export const layerDirectoryOf = (o: KubeObject): string => layerDirectory(layerOf(o));

/** Every layer directory of a bundle, in apply order (empty layers included: paths never move). */
export const LAYER_DIRECTORIES: readonly string[] = LAYERS.map(layerDirectory);
