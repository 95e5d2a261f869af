import type { IKustomization } from '@kubernetes-models/flux-cd/kustomize.toolkit.fluxcd.io/v1/Kustomization';
import type { ClusterSet } from '../../model/clusterset';
import { FLUX_PRUNE } from '../guards';
import { LAYERS } from '../layers';
import { asKubeObject } from './kube-object-cast';
import { bundlePath, engineName, LABELS, MANAGED_BY } from './engine-names';
import type { ClusterDeliveryInputs, EngineObject } from './cluster-inputs';
import { exportDirectory, layerDirectory } from './layer-paths';

type FluxDelivery = NonNullable<ClusterSet['spec']['delivery']['flux']>;

export const FLUX_FOLDER = 'flux';

/**
 * The ClusterSet health check (Flux >= v2.5 `healthCheckExprs`). A member's ClusterSet is
 * ready once it is connected to the leader. The leader's own `Ready` aggregates every joined
 * member (leader/clusterset_controller.go), so gating on it would let one broken member block
 * the leader's Kustomization and, through `dependsOn`, every member's fix: for the leader it is
 * enough that its mc-controller has observed the current generation. The two are told apart
 * by `spec.leaders[].server`, which only a member's ClusterSet carries.
 */
export const CLUSTERSET_HEALTH_CHECK = {
  apiVersion: 'multicluster.crd.antrea.io/v1alpha2',
  kind: 'ClusterSet',
  current:
    "spec.leaders.exists(l, has(l.server)) ? status.conditions.exists(c, c.type == 'Ready' && c.status == 'True') : status.observedGeneration == metadata.generation",
};

/**
 * A cluster's Flux Kustomizations, one per apply layer, chained with `dependsOn` and `wait`, so that
 * each layer is healthy before the next is applied.
 *
 * - With a hub Flux (any cluster has `delivery.flux.kubeConfigSecretRef`), every Kustomization
 *   goes to `flux/` for the hub, and each member's first layer also waits for the leader's
 *   last one.
 * - Otherwise each cluster runs its own Flux and gets `flux/<clusterID>/`; Flux cannot depend on
 *   another cluster's Kustomization, so members simply retry until the leader is ready.
 */
export function fluxClusterObjects(inputs: ClusterDeliveryInputs): EngineObject[] {
  const flux = inputs.delivery.flux;
  if (!flux) return [];
  const folder = inputs.fluxHub ? FLUX_FOLDER : `${FLUX_FOLDER}/${inputs.clusterID}`;
  const after =
    inputs.fluxHub && inputs.role === 'member' && inputs.leaderID !== undefined ? layerName(inputs.clusterSet, inputs.leaderID, LAYERS.length - 1) : undefined;
  return [...layerKustomizations(inputs, flux, after), ...exportKustomizations(inputs, flux)].map((k) => ({ folder, object: asKubeObject(k) }));
}

/** `<clusterset>-<clusterID>-<n>-<layer>`: `flux get kustomizations` lists them in apply order. */
const layerName = (clusterSet: string, clusterID: string, index: number): string => engineName(clusterSet, clusterID, layerDirectory(LAYERS[index]!));

/** What every Kustomization of a cluster shares: labels, source, kubeConfig. */
function kustomizationBase(inputs: ClusterDeliveryInputs, flux: FluxDelivery, layer: string) {
  const { clusterSet, clusterID, role } = inputs;
  const kubeConfigRef = inputs.destination.flux?.kubeConfigSecretRef;
  const { kind, name, namespace } = flux.sourceRef;
  return {
    labels: {
      [LABELS.managedBy]: MANAGED_BY,
      [LABELS.clusterSet]: clusterSet,
      [LABELS.clusterID]: clusterID,
      [LABELS.role]: role,
      [LABELS.layer]: layer,
    },
    source: { sourceRef: { kind, name, ...(namespace !== undefined && { namespace }) } },
    kubeConfig: kubeConfigRef && {
      kubeConfig: { secretRef: { name: kubeConfigRef.name, ...(kubeConfigRef.key !== undefined && { key: kubeConfigRef.key }) } },
    },
  };
}

/**
 * One Kustomization per application Namespace the cluster exports from, after the cluster's last
 * layer, and nothing depends on it: until the application's delivery creates the Namespace, its
 * dry run fails (namespaces "x" not found) and Flux retries it at the interval, while the
 * ClusterSet and the other Namespaces' exports are applied. Guarded like the layers: a renamed
 * ClusterSet or a removed definition orphans it instead of pruning the exports; an export removed
 * from a Namespace that keeps others is pruned as before.
 */
function exportKustomizations(inputs: ClusterDeliveryInputs, flux: FluxDelivery): IKustomization[] {
  const { clusterSet, clusterID } = inputs;
  const path = bundlePath(flux.path, clusterSet, clusterID);
  return inputs.exportNamespaces.map((ns): IKustomization => {
    const base = kustomizationBase(inputs, flux, 'exports');
    return {
      apiVersion: 'kustomize.toolkit.fluxcd.io/v1',
      kind: 'Kustomization',
      metadata: {
        name: engineName(clusterSet, clusterID, 'exports', ns),
        namespace: flux.namespace,
        labels: base.labels,
        annotations: { [FLUX_PRUNE]: 'disabled' },
      },
      spec: {
        interval: flux.interval,
        ...base.source,
        path: `./${path}/${exportDirectory(ns)}`,
        prune: true,
        wait: true,
        dependsOn: [{ name: layerName(clusterSet, clusterID, LAYERS.length - 1) }],
        ...base.kubeConfig,
      },
    };
  });
}

function layerKustomizations(inputs: ClusterDeliveryInputs, flux: FluxDelivery, after: string | undefined): IKustomization[] {
  const { clusterSet, clusterID } = inputs;
  const path = bundlePath(flux.path, clusterSet, clusterID);
  return LAYERS.map((layer, i): IKustomization => {
    const dependsOn = i > 0 ? [layerName(clusterSet, clusterID, i - 1)] : after ? [after] : [];
    const base = kustomizationBase(inputs, flux, layer);
    return {
      apiVersion: 'kustomize.toolkit.fluxcd.io/v1',
      kind: 'Kustomization',
      metadata: {
        name: layerName(clusterSet, clusterID, i),
        namespace: flux.namespace,
        labels: base.labels,
        // the parent Kustomization that applies flux/ must never garbage-collect this one: deleting
        // a Kustomization with prune: true deletes everything it applied, the CNI included, so a
        // ClusterSet renamed, a definition removed or a member dropped would uninstall Antrea.
        // Orphaned instead, it reports the missing path until removed on purpose (docs/delivery.md).
        annotations: { [FLUX_PRUNE]: 'disabled' },
      },
      // no postBuild: nothing in a bundle is a template, and `${...}` in Antrea's config stays as written
      spec: {
        interval: flux.interval,
        ...base.source,
        path: `./${path}/${layerDirectory(layer)}`,
        prune: true,
        wait: true,
        ...(dependsOn.length > 0 && { dependsOn: dependsOn.map((n) => ({ name: n })) }),
        ...base.kubeConfig,
        // custom resources come last (layers.ts); the ClusterSet is among them
        ...(layer === 'resources' && { healthCheckExprs: [{ ...CLUSTERSET_HEALTH_CHECK }] }),
        // healthCheckExprs (Flux v2.5) is newer than the typings of @kubernetes-models/flux-cd 2.3, whose schema allows it
      },
    };
  });
}
