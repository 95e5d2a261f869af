import { MAX_OBJECT_BYTES } from '../../kube/object-limits';
import { toYaml } from '../../kube/serialize';
import type { ClusterSet } from '../../model/clusterset';
import type { EffectiveCluster } from '../../model/effective';
import { ARGOCD_FOLDER } from '../../delivery/argocd/applications';
import { ENGINES } from '../../delivery/registry';
import { clusterDeliveryInputs } from '../../delivery/cluster-inputs';
import type { ModelRule } from '../rule';

/**
 * The ApplicationSet's size as the layout stage writes it. It is the one object that grows with the fleet
 * (its list generator holds every cluster), so this rule measures it by building it: the figure
 * is exactly what synth's own limit check (`MAX_OBJECT_BYTES`, kube/object-limits.ts) would measure, and
 * a definition validate accepts always synthesizes.
 */
export function applicationSetBytes(definition: ClusterSet, clusters: readonly EffectiveCluster[]): number {
  const [appset] = ENGINES.argocd.objects.clusterSetObjects(clusterDeliveryInputs(definition, clusters))[ARGOCD_FOLDER] ?? [];
  return appset ? Buffer.byteLength(toYaml(appset)) : 0;
}

export const argocdApplicationsetSize: ModelRule = {
  id: 'argocd-applicationset-size',
  severity: 'error',
  description: "Argo CD's ApplicationSet, which lists every cluster, would be larger than an API server takes per object",
  validate({ definition, clusters, report }) {
    // every cluster needs a destination first (delivery-destination-missing)
    if (!definition.spec.delivery.argocd || !ENGINES.argocd.objects.canBuild(definition, clusters)) return;
    const bytes = applicationSetBytes(definition, clusters);
    if (bytes <= MAX_OBJECT_BYTES) return;
    report({
      path: ['spec', 'delivery', 'argocd'],
      key: true,
      message: `the Argo CD ApplicationSet of ${clusters.length} clusters would be ${bytes} bytes, more than the ${MAX_OBJECT_BYTES} an API server takes per object`,
      hint: 'deliver this ClusterSet with Flux (spec.delivery.flux), whose objects are per cluster; the ApplicationSet lists every cluster with its destination, so shorter Argo CD destinations (cluster names rather than server URLs) also help',
    });
  },
};
