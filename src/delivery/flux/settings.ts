import type { ClusterSet } from '../../model/clusterset';
import type { EffectiveCluster } from '../../model/effective';
import type { EngineFinding, EngineSetting } from '../engine';

/**
 * A hub Flux (some cluster has a kubeconfig) applies every bundle without one to its own cluster:
 * one such cluster is the hub itself, a second would be applied on top of it.
 */
export function fluxMissingDestinations(definition: ClusterSet, clusters: readonly EffectiveCluster[]): EngineFinding[] {
  if (!definition.spec.delivery.flux) return [];
  const remote = clusters.find((c) => c.cluster.delivery.flux?.kubeConfigSecretRef);
  if (!remote) return [];
  const local = clusters.filter((c) => !c.cluster.delivery.flux?.kubeConfigSecretRef);
  return local.slice(1).map((c) => ({
    path: [...c.path, 'clusterID'],
    message: `cluster "${c.clusterID}" has no kubeconfig for the hub Flux, and neither has "${local[0]!.clusterID}": both bundles would be applied to the hub's own cluster`,
    hint: 'add delivery: { flux: { kubeConfigSecretRef: { name: <Secret with its kubeconfig> } } } to every cluster but the one the hub runs in',
    related: [
      { path: [...local[0]!.path, 'clusterID'], message: `cluster "${local[0]!.clusterID}" is taken as the hub's own cluster` },
      { path: [...remote.path, 'delivery', 'flux', 'kubeConfigSecretRef'], message: 'a kubeconfig here makes Flux a hub' },
    ],
  }));
}

/** A cluster's kubeconfig Secret for a hub Flux: its name and key. */
export function fluxClusterSettings(c: EffectiveCluster): EngineSetting[] {
  const kubeConfig = c.cluster.delivery.flux?.kubeConfigSecretRef;
  if (!kubeConfig) return [];
  const path = [...c.path, 'delivery', 'flux', 'kubeConfigSecretRef'];
  return [
    { what: 'kubeconfig Secret name', value: kubeConfig.name, path: [...path, 'name'], format: 'subdomain' },
    ...(kubeConfig.key !== undefined ? [{ what: 'kubeconfig Secret key', value: kubeConfig.key, path: [...path, 'key'], format: 'secretKey' as const }] : []),
  ];
}

/** `spec.delivery.flux`: its Namespace, interval, source and path. */
export function fluxSettings(definition: ClusterSet): EngineSetting[] {
  const flux = definition.spec.delivery.flux;
  if (!flux) return [];
  const dp = ['spec', 'delivery', 'flux'];
  return [
    { what: 'Flux Namespace', value: flux.namespace, path: [...dp, 'namespace'], format: 'label' },
    { what: 'Flux interval', value: flux.interval, path: [...dp, 'interval'], format: 'duration' },
    { what: 'Flux source name', value: flux.sourceRef.name, path: [...dp, 'sourceRef', 'name'], format: 'subdomain' },
    ...(flux.sourceRef.namespace !== undefined
      ? [{ what: 'Flux source Namespace', value: flux.sourceRef.namespace, path: [...dp, 'sourceRef', 'namespace'], format: 'label' as const }]
      : []),
    { what: 'path', value: flux.path, path: [...dp, 'path'], format: 'plain' },
  ];
}
