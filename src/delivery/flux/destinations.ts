import type { ClusterSet } from '../../model/clusterset';
import type { EffectiveCluster } from '../../model/effective';
import type { DeliveryDestination } from '../destinations';

/** Flux reads the kubeconfig from this key when none is named and the Secret has it (fluxcd/pkg runtime/client/impersonator.go, getRESTConfigFromSecret; else `value.yaml`, which is not assumed here). */
const DEFAULT_KUBECONFIG_KEY = 'value';

/** Where a hub Flux delivers a remote cluster's bundle: through a kubeconfig Secret of its Namespace. A cluster its own Flux applies has none. */
export function fluxDestinations(definition: ClusterSet, c: EffectiveCluster): DeliveryDestination[] {
  const flux = definition.spec.delivery.flux;
  const kubeConfig = c.cluster.delivery.flux?.kubeConfigSecretRef;
  if (!flux || !kubeConfig) return [];
  return [
    {
      engine: 'flux',
      key: `flux\0${flux.namespace}\0${kubeConfig.name}\0${kubeConfig.key ?? DEFAULT_KUBECONFIG_KEY}`,
      what: `Flux kubeconfig Secret ${flux.namespace}/${kubeConfig.name}`,
      path: [...c.path, 'delivery', 'flux', 'kubeConfigSecretRef'],
    },
  ];
}
