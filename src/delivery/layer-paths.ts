import { LAYERS, layerOf, type Layer } from './layers';
import type { KubeObject } from '../kube/kube-object';
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
 * never holds a layer or, through a hub Flux's `dependsOn`, another cluster. Argo CD syncs it as an
 * Application of its own (argocd.ts), so no sync of the bundle waits for it. The bundle root does
 * not list it: the root is the bundle's Application, whose last wave must be the ClusterSet's (a
 * later wave or hook would make each sync wait for the ClusterSet's health, gitops-engine
 * sync_context.go `Sync`, and a member that never connects would hold every later commit).
 */
export const VERIFY_DIRECTORY = 'verify';
/** The label value that puts an object of a bundle in `verify/`. */
export const VERIFY_UNIT = 'verify';

/**
 * The Tier restart (synth/objects/tier-restart.ts: its Job and RBAC) lives in `tier-restart/`, a
 * unit after the Tiers' layer like the verification, for the same reasons: an image the clusters
 * cannot pull holds that unit alone, never `4-resources` nor, through a hub Flux's `dependsOn` on a
 * dual-role leader's last layer, every member.
 */
export const TIER_RESTART_DIRECTORY = 'tier-restart';
export const TIER_RESTART_UNIT = 'tier-restart';

/** The units of a bundle outside its layers whose objects a label places: folder by label value. */
const LABELLED_UNITS: Readonly<Record<string, string>> = { [VERIFY_UNIT]: VERIFY_DIRECTORY, [TIER_RESTART_UNIT]: TIER_RESTART_DIRECTORY };
export const LABELLED_UNIT_DIRECTORIES: readonly string[] = Object.values(LABELLED_UNITS);

export const layerDirectoryOf = (o: KubeObject): string =>
  LABELLED_UNITS[o.metadata.labels?.[LABELS.unit] ?? ''] ??
  (o.kind === 'ServiceExport' && o.metadata.namespace ? exportDirectory(o.metadata.namespace) : layerDirectory(layerOf(o)));

/** Every layer directory of a bundle, in apply order (empty layers included: paths never move). */
export const LAYER_DIRECTORIES: readonly string[] = LAYERS.map(layerDirectory);
