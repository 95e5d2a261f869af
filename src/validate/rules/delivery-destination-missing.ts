import type { ModelRule } from '../rule';

export const deliveryDestinationMissing: ModelRule = {
  id: 'delivery-destination-missing',
  severity: 'error',
  description: 'Argo CD delivery is configured and a cluster has no Argo CD destination',
  check({ definition, clusters, report }) {
    if (!definition.spec.delivery.argocd) return;
    for (const c of clusters) {
      // every cluster gets a bundle, the dedicated leader's included, and each needs a destination
      if (c.cluster.delivery.argocd) continue;
      report({
        path: [...c.path, 'clusterID'],
        message: `cluster "${c.clusterID}" has no Argo CD destination`,
        hint: 'add delivery: { argocd: { name: <Argo CD cluster name> } } or { argocd: { server: https://… } } to the cluster',
        related: [{ path: ['spec', 'delivery', 'argocd'], message: 'Argo CD delivery is configured here' }],
      });
    }
  },
};
