import type { ClusterSet } from '../../model/clusterset';
import type { EffectiveCluster } from '../../model/effective';
import type { DeliveryDestination } from '../destinations';

/** Argo CD's built-in destination, by name and by server (pkg/apis/application/v1alpha1/application_defaults.go). */
const IN_CLUSTER_NAME = 'in-cluster';
const IN_CLUSTER_SERVER = 'https://kubernetes.default.svc';
/** Argo CD's built-in destination, the cluster it runs in: registered already, `argocd cluster add` is not for it. */
export function isArgoCdInCluster(destination: { name: string } | { server: string }): boolean {
  return 'name' in destination ? destination.name === IN_CLUSTER_NAME : destination.server.replace(/\/+$/, '') === IN_CLUSTER_SERVER;
}

/**
 * Where Argo CD delivers a cluster's bundle. A server URL names one cluster for every Argo CD
 * (Argo CD trims a trailing slash: util/argo/argo.go getDestinationServer), except the built-in
 * in-cluster one, which is the cluster that Argo CD runs in; a cluster name is one Argo CD's (its
 * Namespace).
 */
export function argoCdDestinations(definition: ClusterSet, c: EffectiveCluster): DeliveryDestination[] {
  const argocd = definition.spec.delivery.argocd;
  const destination = c.cluster.delivery.argocd;
  if (!argocd || !destination) return [];
  const path = [...c.path, 'delivery', 'argocd'];
  const server = 'server' in destination ? destination.server.replace(/\/+$/, '') : undefined;
  const name = server === IN_CLUSTER_SERVER ? IN_CLUSTER_NAME : 'name' in destination ? destination.name : undefined;
  return [
    name === undefined
      ? { engine: 'argocd', key: `server\0${server!}`, what: `Argo CD destination server ${server!}`, path }
      : { engine: 'argocd', key: `argocd\0${argocd.namespace}\0${name}`, what: `Argo CD destination "${name}" (Argo CD in ${argocd.namespace})`, path },
  ];
}
