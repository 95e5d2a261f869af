import type { IKustomization } from '@kubernetes-models/flux-cd/kustomize.toolkit.fluxcd.io/v1/Kustomization';
import type { ClusterSet } from '../../model/clusterset';
import { FLUX_PRUNE } from '../guards';
import { fluxLayerHealthChecks } from './flux-health-checks';
import { LAYERS, type Layer } from '../layers';
import { asKubeObject } from './kube-object-cast';
import { bundlePath, engineName, LABELS, MANAGED_BY } from './engine-names';
import type { ClusterDeliveryInputs, EngineObject } from './cluster-inputs';
import { layerDirectory } from './layer-paths';

type FluxDelivery = NonNullable<ClusterSet['spec']['delivery']['flux']>;

export const FLUX_FOLDER = 'flux';

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
  return layerKustomizations(inputs, flux, after).map((k) => ({ folder, object: asKubeObject(k) }));
}

function healthCheckExprs(layer: Layer, role: ClusterDeliveryInputs['role']) {
  const checks = fluxLayerHealthChecks(layer, role);
  return checks.length > 0 ? { healthCheckExprs: checks } : {};
}

/** `<clusterset>-<clusterID>-<n>-<layer>`: `flux get kustomizations` lists them in apply order. */
const layerName = (clusterSet: string, clusterID: string, index: number): string => engineName(clusterSet, clusterID, layerDirectory(LAYERS[index]!));

function layerKustomizations(inputs: ClusterDeliveryInputs, flux: FluxDelivery, after: string | undefined): IKustomization[] {
  const { clusterSet, clusterID, role } = inputs;
  const kubeConfigRef = inputs.destination.flux?.kubeConfigSecretRef;
  const { kind, name, namespace } = flux.sourceRef;
  const path = bundlePath(flux.path, clusterSet, clusterID);
  return LAYERS.map((layer, i): IKustomization => {
    const dependsOn = i > 0 ? [layerName(clusterSet, clusterID, i - 1)] : after ? [after] : [];
    return {
      apiVersion: 'kustomize.toolkit.fluxcd.io/v1',
      kind: 'Kustomization',
      metadata: {
        name: layerName(clusterSet, clusterID, i),
        namespace: flux.namespace,
        labels: {
          [LABELS.managedBy]: MANAGED_BY,
          [LABELS.clusterSet]: clusterSet,
          [LABELS.clusterID]: clusterID,
          [LABELS.role]: role,
          [LABELS.layer]: layer,
        },
        // the parent Kustomization that applies flux/ must never garbage-collect this one: deleting
        // a Kustomization with prune: true deletes everything it applied, the CNI included, so a
        // ClusterSet renamed, a definition removed or a member dropped would uninstall Antrea.
        // Orphaned instead, it reports the missing path until removed on purpose (docs/delivery.md).
        annotations: { [FLUX_PRUNE]: 'disabled' },
      },
      // no postBuild: nothing in a bundle is a template, and `${...}` in Antrea's config stays as written
      spec: {
        interval: flux.interval,
        sourceRef: { kind, name, ...(namespace !== undefined && { namespace }) },
        path: `./${path}/${layerDirectory(layer)}`,
        prune: true,
        wait: true,
        ...(dependsOn.length > 0 && { dependsOn: dependsOn.map((n) => ({ name: n })) }),
        ...(kubeConfigRef && {
          kubeConfig: { secretRef: { name: kubeConfigRef.name, ...(kubeConfigRef.key !== undefined && { key: kubeConfigRef.key }) } },
        }),
        // the multi-cluster kinds this layer applies, with our health rules (src/health/)
        ...healthCheckExprs(layer, role),
        // healthCheckExprs (Flux v2.5) is newer than the typings of @kubernetes-models/flux-cd 2.3, whose schema allows it
      },
    };
  });
}
