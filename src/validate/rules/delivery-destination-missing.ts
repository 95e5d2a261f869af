import type { ModelRule } from '../rule';

export const deliveryDestinationMissing: ModelRule = {
  id: 'delivery-destination-missing',
  severity: 'error',
  description: 'an engine is configured and a cluster has no destination for it (Argo CD, or a hub Flux)',
  check({ definition, clusters, report }) {
    if (definition.spec.delivery.argocd) {
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
    }
    if (definition.spec.delivery.flux) {
      // a hub Flux (some cluster has a kubeconfig) applies every bundle without one to its own
      // cluster: one such cluster is the hub itself, a second would be applied on top of it
      const remote = clusters.find((c) => c.cluster.delivery.flux?.kubeConfigSecretRef);
      if (!remote) return;
      const local = clusters.filter((c) => !c.cluster.delivery.flux?.kubeConfigSecretRef);
      for (const c of local.slice(1)) {
        report({
          path: [...c.path, 'clusterID'],
          message: `cluster "${c.clusterID}" has no kubeconfig for the hub Flux, and neither has "${local[0]!.clusterID}": both bundles would be applied to the hub's own cluster`,
          hint: 'add delivery: { flux: { kubeConfigSecretRef: { name: <Secret with its kubeconfig> } } } to every cluster but the one the hub runs in',
          related: [
            { path: [...local[0]!.path, 'clusterID'], message: `cluster "${local[0]!.clusterID}" is taken as the hub's own cluster` },
            { path: [...remote.path, 'delivery', 'flux', 'kubeConfigSecretRef'], message: 'a kubeconfig here makes Flux a hub' },
          ],
        });
      }
    }
  },
};
