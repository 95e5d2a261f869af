import type { DeliveryDestination } from '../../delivery/destinations';
import { deliveryDestinations } from '../../delivery/registry';
import type { ModelRule } from '../rule';

/**
 * Two clusters of one definition that an engine delivers to one cluster: both full bundles (two
 * Antrea installations, two ClusterSet objects of one ID, two sets of credentials) land there.
 * Across definitions, `cluster-in-two-definitions` refuses the same, on the same keys.
 */
export const deliveryDestinationShared: ModelRule = {
  id: 'delivery-destination-shared',
  severity: 'error',
  description: 'two clusters of one definition have the same Argo CD destination (name or server) or the same hub Flux kubeconfig Secret',
  validate({ definition, clusters, report }) {
    const first = new Map<string, { clusterID: string; destination: DeliveryDestination }>();
    for (const c of clusters)
      for (const d of deliveryDestinations(definition, c)) {
        const earlier = first.get(d.key);
        if (!earlier) {
          first.set(d.key, { clusterID: c.clusterID, destination: d });
          continue;
        }
        report({
          path: d.path,
          message: `cluster "${c.clusterID}" has the ${d.what} of cluster "${earlier.clusterID}": both bundles would be applied to one cluster`,
          hint: 'give each cluster its own destination (one cluster is one entry of clusters; a leader that is also a member is one entry)',
          related: [{ path: earlier.destination.path, message: `cluster "${earlier.clusterID}" is delivered there` }],
        });
      }
  },
};
