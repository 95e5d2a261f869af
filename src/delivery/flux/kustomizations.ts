import type { IKustomization } from '@kubernetes-models/flux-cd/kustomize.toolkit.fluxcd.io/v1/Kustomization';
import type { ClusterSet } from '../../model/clusterset';
import { FLUX_PRUNE } from './guards';
import { fluxExportHealthChecks, fluxLayerHealthChecks } from './health-checks';
import { LAYERS } from '../layers';
import { asKubeObject } from '../../kube/kube-object';
import { bundlePath, engineName, LABELS, MANAGED_BY } from '../engine-names';
import type { ClusterDeliveryInputs, EngineObject } from '../cluster-inputs';
import { EXPORTS_DIRECTORY, exportDirectory, layerDirectory, TIER_RESTART_DIRECTORY, VERIFY_DIRECTORY } from '../layer-paths';

type FluxDelivery = NonNullable<ClusterSet['spec']['delivery']['flux']>;

/** A hub Flux's folder: its parent applies `flux/` and nothing else. */
export const FLUX_FOLDER = 'flux';
/**
 * The root of the folders of one Flux per cluster (`flux-per-cluster/<clusterID>/`), beside the
 * hub's and never inside it: a hub's parent still pointing at `flux/` after a change to one Flux per
 * cluster finds its path gone and fails, applying and pruning nothing. Were the cluster folders
 * below `flux/`, kustomize-controller would generate a kustomization of every YAML file below it,
 * recursively (fluxcd/pkg kustomize/kustomize_generator.go `generateKustomization`, its `scan`
 * walk), and the hub would apply every cluster's Kustomizations under the hub's names without
 * `spec.kubeConfig`, each cluster's layers to the hub's own cluster. The same holds the other way:
 * a cluster's parent at `flux-per-cluster/<clusterID>/` never reads a hub's `flux/`.
 */
export const FLUX_PER_CLUSTER_FOLDER = 'flux-per-cluster';

/** The folder of a cluster's Flux Kustomizations: the hub's, or the cluster's own Flux's. */
export const fluxFolder = (hub: boolean, clusterID: string): string => (hub ? FLUX_FOLDER : `${FLUX_PER_CLUSTER_FOLDER}/${clusterID}`);

/**
 * A cluster's Flux Kustomizations, one per apply layer, chained with `dependsOn` and `wait`, so that
 * each layer is healthy before the next is applied.
 *
 * - With a hub Flux (any cluster has `delivery.flux.kubeConfigSecretRef`), every Kustomization
 *   goes to `flux/` for the hub, and each member's first layer also waits for the leader's
 *   last one.
 * - Otherwise each cluster runs its own Flux and gets `flux-per-cluster/<clusterID>/`; Flux cannot depend on
 *   another cluster's Kustomization, so members simply retry until the leader is ready.
 */
export function fluxClusterObjects(inputs: ClusterDeliveryInputs): EngineObject[] {
  const flux = inputs.delivery.flux;
  if (!flux) return [];
  const folder = fluxFolder(inputs.fluxHub, inputs.clusterID);
  const after =
    inputs.fluxHub && inputs.role === 'member' && inputs.leaderID !== undefined ? layerName(inputs.clusterSet, inputs.leaderID, LAYERS.length - 1) : undefined;
  return [
    ...layerKustomizations(inputs, flux, after),
    ...exportKustomizations(inputs, flux),
    ...verifyKustomization(inputs, flux),
    ...tierRestartKustomization(inputs, flux),
  ].map((k) => ({
    folder,
    object: asKubeObject(k),
  }));
}

/** `<clusterset>-<clusterID>-<n>-<layer>`: `flux get kustomizations` lists them in apply order. */
const layerName = (clusterSet: string, clusterID: string, index: number): string => engineName(clusterSet, clusterID, layerDirectory(LAYERS[index]!));

/**
 * One Kustomization of a cluster: its folder (`dir`, under the bundle), the label of its unit,
 * what it waits for. Every one prunes what leaves it and waits for health; all but the exports
 * units are guarded.
 */
function kustomization(
  inputs: ClusterDeliveryInputs,
  flux: FluxDelivery,
  unit: { readonly name: string; readonly label: string; readonly dir: string; readonly dependsOn: readonly string[]; readonly guarded?: boolean },
  extra: Partial<IKustomization['spec']> = {},
): IKustomization {
  const { clusterSet, clusterID, role } = inputs;
  const kubeConfigRef = inputs.destination.flux?.kubeConfigSecretRef;
  const { kind, name, namespace } = flux.sourceRef;
  return {
    apiVersion: 'kustomize.toolkit.fluxcd.io/v1',
    kind: 'Kustomization',
    metadata: {
      name: unit.name,
      namespace: flux.namespace,
      labels: {
        [LABELS.managedBy]: MANAGED_BY,
        [LABELS.clusterSet]: clusterSet,
        [LABELS.clusterID]: clusterID,
        [LABELS.role]: role,
        [LABELS.layer]: unit.label,
      },
      // the parent Kustomization that applies flux/ must never garbage-collect this one: deleting
      // a Kustomization with prune: true deletes everything it applied, the CNI included, so a
      // ClusterSet renamed, a definition removed or a member dropped would uninstall Antrea.
      // Orphaned instead, it reports the missing path until removed on purpose (docs/delivery.md).
      ...(unit.guarded !== false && { annotations: { [FLUX_PRUNE]: 'disabled' } }),
    },
    // no postBuild: nothing in a bundle is a template, and `${...}` in Antrea's config stays as written
    spec: {
      interval: flux.interval,
      sourceRef: { kind, name, ...(namespace !== undefined && { namespace }) },
      path: `./${bundlePath(flux.path, clusterSet, clusterID)}/${unit.dir}`,
      prune: true,
      wait: true,
      ...(unit.dependsOn.length > 0 && { dependsOn: unit.dependsOn.map((n) => ({ name: n })) }),
      ...(kubeConfigRef && {
        kubeConfig: { secretRef: { name: kubeConfigRef.name, ...(kubeConfigRef.key !== undefined && { key: kubeConfigRef.key }) } },
      }),
      ...extra,
    },
  };
}

/** A unit after the cluster's last layer (exports, verification, Tier restart): nothing depends on it. */
const afterLastLayer = (
  inputs: ClusterDeliveryInputs,
  flux: FluxDelivery,
  unit: { readonly name: string; readonly label: string; readonly dir: string; readonly guarded?: boolean },
  extra: Partial<IKustomization['spec']> = {},
): IKustomization => kustomization(inputs, flux, { ...unit, dependsOn: [layerName(inputs.clusterSet, inputs.clusterID, LAYERS.length - 1)] }, extra);

/**
 * One Kustomization per application Namespace the cluster exports from, after the cluster's last
 * layer, and nothing depends on it: until the application's delivery creates the Namespace, its
 * dry run fails (namespaces "x" not found) and Flux retries it at the interval, while the
 * ClusterSet and the other Namespaces' exports are applied. It checks its ServiceExports' health
 * (a refused export fails it; one whose Service is missing keeps it waiting), which holds nothing
 * else. Not guarded: when the last export of its Namespace goes, or the member withdraws or
 * leaves, the parent deletes it and its finalizer prunes its ServiceExports
 * (kustomization_controller.go finalize), so a Service no longer exported is no longer exported.
 */
function exportKustomizations(inputs: ClusterDeliveryInputs, flux: FluxDelivery): IKustomization[] {
  const { clusterSet, clusterID } = inputs;
  return inputs.exportNamespaces.map((ns) =>
    afterLastLayer(
      inputs,
      flux,
      { name: exportKustomizationName(clusterSet, clusterID, ns), label: 'exports', dir: exportDirectory(ns), guarded: false },
      fluxExportHealthChecks(),
    ),
  );
}

/** `<clusterset>-<clusterID>-exports-<namespace>`: the Kustomization of a member's exports in one Namespace. */
export const exportKustomizationName = (clusterSet: string, clusterID: string, namespace: string): string =>
  engineName(clusterSet, clusterID, EXPORTS_DIRECTORY, namespace);

/**
 * The verification of a member (`<bundle>/verify/`, layer-paths.ts), `<clusterset>-<clusterID>-verify`:
 * after the cluster's last layer, and nothing depends on it, so its Job's result (kstatus: Current
 * once Complete, Failed once Failed) is this Kustomization's Ready and holds no layer and no other
 * cluster. It waits as long as the Job may run (verify-job.ts `activeDeadlineSeconds`), not the
 * interval. Guarded like the layers: a renamed ClusterSet orphans it, a verification that changes
 * replaces its Job (named by content) and prunes the old one.
 */
function verifyKustomization(inputs: ClusterDeliveryInputs, flux: FluxDelivery): IKustomization[] {
  if (!inputs.verify) return [];
  const name = verifyKustomizationName(inputs.clusterSet, inputs.clusterID);
  return [afterLastLayer(inputs, flux, { name, label: VERIFY_DIRECTORY, dir: VERIFY_DIRECTORY }, { timeout: VERIFY_TIMEOUT })];
}

/**
 * `<clusterset>-<clusterID>-verify` (docs/verify.md: `flux reconcile kustomization` it to run a
 * verification again). It cannot take another unit's name: a layer's ends in its layer, never
 * `verify`; another member's verify unit has another ID; an exports unit `<cs>-<id>-exports-<ns>`
 * matches only when this member's ID is `<id>-exports-…`, a dash-prefix pair of two members that
 * `cluster-id-prefix-pair` refuses (and a hub Flux's folder refuses any duplicate as
 * `output-collision`).
 */
export const verifyKustomizationName = (clusterSet: string, clusterID: string): string => engineName(clusterSet, clusterID, VERIFY_DIRECTORY);

/**
 * The Tier restart of a member with custom Tiers (`<bundle>/tier-restart/`, layer-paths.ts),
 * `<clusterset>-<clusterID>-tier-restart`: after the cluster's last layer, which holds the Tiers, and
 * nothing depends on it, so its Job (Ready once Complete) holds no layer and, with a hub Flux, no
 * other cluster, even when its image cannot be pulled. A new Job (a new Tier set or template)
 * replaces the old one, which it prunes. Not guarded: when the last custom Tier goes, the parent
 * deletes it and its finalizer prunes the Job and its RBAC, which nothing else needs.
 */
function tierRestartKustomization(inputs: ClusterDeliveryInputs, flux: FluxDelivery): IKustomization[] {
  if (!inputs.tierRestart) return [];
  const name = tierRestartKustomizationName(inputs.clusterSet, inputs.clusterID);
  return [afterLastLayer(inputs, flux, { name, label: TIER_RESTART_DIRECTORY, dir: TIER_RESTART_DIRECTORY, guarded: false })];
}

/** `<clusterset>-<clusterID>-tier-restart`: its name cannot be another unit's, for the reasons `verifyKustomizationName` gives. */
export const tierRestartKustomizationName = (clusterSet: string, clusterID: string): string => engineName(clusterSet, clusterID, TIER_RESTART_DIRECTORY);

/**
 * How long a verify unit waits for its Job before it reports it not Ready (and tries again at its
 * interval); the Job itself has no deadline (verify-job.ts: it first waits for its connection).
 */
const VERIFY_TIMEOUT = '60m';

function layerKustomizations(inputs: ClusterDeliveryInputs, flux: FluxDelivery, after: string | undefined): IKustomization[] {
  const { clusterSet, clusterID } = inputs;
  return LAYERS.map((layer, i) =>
    kustomization(
      inputs,
      flux,
      {
        name: layerName(clusterSet, clusterID, i),
        label: layer,
        dir: layerDirectory(layer),
        dependsOn: i > 0 ? [layerName(clusterSet, clusterID, i - 1)] : after ? [after] : [],
      },
      // the multi-cluster kinds this layer applies, with our health rules (src/health/)
      fluxLayerHealthChecks(layer, inputs.role),
    ),
  );
}
