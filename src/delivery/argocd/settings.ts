import type { ClusterSet } from '../../model/clusterset';
import type { EffectiveCluster } from '../../model/effective';
import type { EngineFinding, EngineSetting } from '../engine';

/** Every cluster gets a bundle, the dedicated leader's included, and each needs an Argo CD destination. */
export function argoCdMissingDestinations(definition: ClusterSet, clusters: readonly EffectiveCluster[]): EngineFinding[] {
  if (!definition.spec.delivery.argocd) return [];
  return clusters
    .filter((c) => !c.cluster.delivery.argocd)
    .map((c) => ({
      path: [...c.path, 'clusterID'],
      message: `cluster "${c.clusterID}" has no Argo CD destination`,
      hint: 'add delivery: { argocd: { name: <Argo CD cluster name> } } or { argocd: { server: https://… } } to the cluster',
      related: [{ path: ['spec', 'delivery', 'argocd'], message: 'Argo CD delivery is configured here' }],
    }));
}

/** A cluster's destination: a name in Argo CD's templates, or a server URL. */
export function argoCdClusterSettings(c: EffectiveCluster): EngineSetting[] {
  const d = c.cluster.delivery.argocd;
  const path = [...c.path, 'delivery', 'argocd'];
  if (!d) return [];
  return 'name' in d
    ? [{ what: 'Argo CD cluster name', value: d.name, path: [...path, 'name'], format: 'plain' }]
    : [{ what: 'Argo CD cluster server', value: d.server, path: [...path, 'server'], format: 'url' }];
}

/** `spec.delivery.argocd`: its Namespace, project, and what the Applications' source names. */
export function argoCdSettings(definition: ClusterSet): EngineSetting[] {
  const argocd = definition.spec.delivery.argocd;
  if (!argocd) return [];
  const dp = ['spec', 'delivery', 'argocd'];
  return [
    { what: 'Argo CD Namespace', value: argocd.namespace, path: [...dp, 'namespace'], format: 'label' },
    { what: 'Argo CD project', value: argocd.project, path: [...dp, 'project'], format: 'subdomain' },
    { what: 'repoURL', value: argocd.repoURL, path: [...dp, 'repoURL'], format: 'plain' },
    { what: 'targetRevision', value: argocd.targetRevision, path: [...dp, 'targetRevision'], format: 'plain' },
    { what: 'path', value: argocd.path, path: [...dp, 'path'], format: 'plain' },
  ];
}
