import type { DataPath } from '../../diagnostics/diagnostic';
import type { EffectiveCluster } from '../../model/effective';
import { declaredHere, memberIpv4Values, overlapMessage, type Ipv4Value } from '../addresses';
import { overlappingPairs } from '../cidr';
import type { DeliveryDestination } from '../../delivery/destinations';
import { deliveryDestinations } from '../../delivery/registry';
import type { FleetDefinition, FleetRule } from '../rule';

/** How a definition reaches a cluster, its ID and its delivery destinations: each key names one real cluster, whichever definition writes it. */
type Identity = Omit<DeliveryDestination, 'engine'> & { readonly engine?: DeliveryDestination['engine'] };

function identities({ definition }: FleetDefinition, c: EffectiveCluster): Identity[] {
  return [{ key: `id\0${c.clusterID}`, what: `cluster ID "${c.clusterID}"`, path: [...c.path, 'clusterID'] }, ...deliveryDestinations(definition, c)];
}

/** Both clusters are delivered by the same engine to different destinations: two clusters. */
function distinctDestinations(a: readonly Identity[], b: readonly Identity[]): boolean {
  return a.some((x) => x.engine !== undefined && b.some((y) => y.engine === x.engine && y.key !== x.key));
}

/**
 * Two definitions that drive one cluster: the same cluster ID (unless their destinations in one
 * engine tell them apart), the same Argo CD destination or the same hub Flux kubeconfig Secret. Both would deliver a full Antrea installation and a member
 * ClusterSet to it; the engines then fight over the same objects. Where two ClusterSets share a
 * cluster, that cluster routes to the clusters of both, so their Pod and Service CIDRs must not
 * overlap either. Maps and one sweep per sharing pair: linear in the clusters.
 */
export const clusterInTwoDefinitions: FleetRule = {
  id: 'cluster-in-two-definitions',
  severity: 'error',
  description: 'two definitions drive the same cluster (cluster ID, Argo CD destination, Flux kubeconfig), or overlap in CIDRs across a shared cluster',
  validateFleet({ definitions, report }) {
    const first = new Map<string, { at: number; cluster: EffectiveCluster; path: DataPath }>();
    // definition pairs that share clusters: "a\0b" → cluster IDs in b that a also drives
    const shared = new Map<string, { a: number; b: number; inB: Set<EffectiveCluster> }>();
    definitions.forEach((fd, at) => {
      for (const c of fd.clusters) {
        let reported = false;
        const own = identities(fd, c);
        for (const id of own) {
          const earlier = first.get(id.key);
          if (!earlier) {
            first.set(id.key, { at, cluster: c, path: id.path });
            continue;
          }
          if (earlier.at === at || reported) continue;
          // one cluster ID names two clusters when their destinations in one engine differ
          if (id.key.startsWith('id\0') && distinctDestinations(own, identities(definitions[earlier.at]!, earlier.cluster))) continue;
          reported = true;
          const other = definitions[earlier.at]!.definition.metadata.name;
          report(at, {
            path: id.path,
            message: id.key.startsWith('id\0')
              ? `cluster ID "${c.clusterID}" is in ClusterSet "${fd.definition.metadata.name}" and in ClusterSet "${other}": two definitions drive one cluster`
              : `cluster "${c.clusterID}" of ClusterSet "${fd.definition.metadata.name}" has the ${id.what} of cluster "${earlier.cluster.clusterID}" of ClusterSet "${other}": two definitions drive one cluster`,
            hint: `a cluster belongs to one ClusterSet definition: remove it from one of them, or give each cluster its own ${id.key.startsWith('id') ? 'cluster ID' : 'destination'}`,
            related: [{ at: earlier.at, path: earlier.path, message: `ClusterSet "${other}" declares it here` }],
          });
          const pair = `${earlier.at}\0${at}`;
          const entry = shared.get(pair) ?? { a: earlier.at, b: at, inB: new Set() };
          entry.inB.add(c);
          shared.set(pair, entry);
        }
      }
    });
    for (const { a, b, inB } of shared.values()) {
      type Tagged = Ipv4Value & { readonly at: number };
      const values = (at: number, offset: number): Tagged[] =>
        memberIpv4Values(definitions[at]!.clusters)
          .filter((v) => v.field !== 'gatewayIP' && !(at === b && inB.has(v.cluster)))
          .map((v) => ({ ...v, order: v.order + offset, at }));
      const items = [...values(a, 0), ...values(b, Number.MAX_SAFE_INTEGER / 2)];
      const pairs = overlappingPairs(
        items,
        (v) => String(v.at),
        (x, y) => x !== y,
      );
      const shares = [...inB].map((c) => `"${c.clusterID}"`).join(', ');
      for (const { first: f, second: s } of pairs)
        report(s.at, {
          path: s.path,
          message: `${overlapMessage(s, f)} of ClusterSet "${definitions[f.at]!.definition.metadata.name}", which shares cluster ${shares} with this one`,
          hint: 'a cluster in two ClusterSets routes to the clusters of both: their Pod and Service CIDRs must be disjoint',
          related: [{ at: f.at, ...declaredHere(f) }],
        });
    }
  },
};
