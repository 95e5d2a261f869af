import type { DataPath } from '../diagnostics/diagnostic';
import type { ClusterSet } from '../model/clusterset';
import type { EffectiveCluster } from '../model/effective';

/** Where an engine applies a cluster's bundle: equal keys are one real cluster. */
export interface DeliveryDestination {
  readonly key: string;
  /** the destination as a message names it */
  readonly what: string;
  readonly path: DataPath;
}

/** Argo CD's built-in destination, by name and by server (pkg/apis/application/v1alpha1/application_defaults.go). */
const IN_CLUSTER_NAME = 'in-cluster';
const IN_CLUSTER_SERVER = 'https://kubernetes.default.svc';
/** Flux reads the kubeconfig from this key when none is named and the Secret has it (fluxcd/pkg runtime/client/impersonator.go, getRESTConfigFromSecret; else `value.yaml`, which is not assumed here). */
const DEFAULT_KUBECONFIG_KEY = 'value';

/**
 * The destinations a definition's engines deliver a cluster's bundle to. A server URL names one
 * cluster for every Argo CD (Argo CD trims a trailing slash: util/argo/argo.go
 * getDestinationServer), except the built-in in-cluster one, which is the cluster that Argo CD
 * runs in; a cluster name is one Argo CD's (its Namespace). A hub Flux reaches a remote cluster
 * through a kubeconfig Secret of its Namespace. A cluster without a destination (its own Flux)
 * has none here.
 */
export function deliveryDestinations(definition: ClusterSet, c: EffectiveCluster): DeliveryDestination[] {
  const out: DeliveryDestination[] = [];
  const argocd = definition.spec.delivery.argocd;
  const destination = c.cluster.delivery.argocd;
  if (argocd && destination) {
    const path = [...c.path, 'delivery', 'argocd'];
    const server = 'server' in destination ? destination.server.replace(/\/+$/, '') : undefined;
    const name = server === IN_CLUSTER_SERVER ? IN_CLUSTER_NAME : 'name' in destination ? destination.name : undefined;
    out.push(
      name === undefined
        ? { key: `server\0${server}`, what: `Argo CD destination server ${server}`, path }
        : { key: `argocd\0${argocd.namespace}\0${name}`, what: `Argo CD destination "${name}" (Argo CD in ${argocd.namespace})`, path },
    );
  }
  const flux = definition.spec.delivery.flux;
  const kubeConfig = c.cluster.delivery.flux?.kubeConfigSecretRef;
  if (flux && kubeConfig)
    out.push({
      key: `flux\0${flux.namespace}\0${kubeConfig.name}\0${kubeConfig.key ?? DEFAULT_KUBECONFIG_KEY}`,
      what: `Flux kubeconfig Secret ${flux.namespace}/${kubeConfig.name}`,
      path: [...c.path, 'delivery', 'flux', 'kubeConfigSecretRef'],
    });
  return out;
}
