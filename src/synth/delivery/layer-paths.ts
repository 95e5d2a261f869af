import { LAYERS, layerOf, type Layer } from '../layers';
import type { KubeObject } from '../../kube/kube-object';
import { LABELS } from './engine-names';

/**
 * One sub-kustomization per apply layer inside a bundle, e.g. `2-webhooks/`. The bundle root's
 * kustomization lists these directories, so `kubectl apply -k <bundle>` and Argo CD's kustomize
 * source still get everything, while a Flux Kustomization per layer points at one directory.
 * The files live inside their layer's directory because kustomize refuses files outside a
 * kustomization root (LoadRestrictionsRootOnly, the default of kubectl and Argo CD).
 */
export const layerDirectory = (layer: Layer): string => `${LAYERS.indexOf(layer)}-${layer}`;

/**
 * ServiceExports live beside the layers, one folder per application Namespace
 * (`exports/<namespace>/`), in a delivery unit of their own that nothing depends on: a Namespace
 * comes from the application's own delivery, often later, and an apply refused for it must never
 * hold back the ClusterSet. Flux dry-runs a unit's objects together (fluxcd/pkg ssa ApplyAll),
 * so an export in `4-resources` would keep everything there from being applied; Argo CD would
 * apply the rest of the wave but end the sync Failed (gitops-engine sync_context.go Sync).
 */
export const EXPORTS_DIRECTORY = 'exports';
export const exportDirectory = (namespace: string): string => `${EXPORTS_DIRECTORY}/${namespace}`;

/**
 * The verification (synth/parts/verify-job.ts: its Job, script and RBAC) lives in `verify/`, a
 * delivery unit of its own that nothing depends on: Flux applies it after the cluster's last layer
 * and waits for the Job there, so a verification that fails, or an image that cannot be pulled,
 * never holds a layer or, through a hub Flux's `dependsOn`, another cluster. The bundle root lists
 * it after the layers (Argo CD and `kubectl apply -k` read the root; Argo CD runs the Job as a
 * PostSync hook); no layer Kustomization points at it.
 */
export const VERIFY_DIRECTORY = 'verify';
/** The label value that puts an object of a bundle in `verify/`. */
export const VERIFY_UNIT = 'verify';

export const layerDirectoryOf = (o: KubeObject): string =>
  o.metadata.labels?.[LABELS.unit] === VERIFY_UNIT
    ? VERIFY_DIRECTORY
    : o.kind === 'ServiceExport' && o.metadata.namespace
      ? exportDirectory(o.metadata.namespace)
      : layerDirectory(layerOf(o));

/** Every layer directory of a bundle, in apply order (empty layers included: paths never move). */
export const LAYER_DIRECTORIES: readonly string[] = LAYERS.map(layerDirectory);
