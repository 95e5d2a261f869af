import type { Cluster } from './clusterset';
import { activeMembers, isActiveMember, type EffectiveCluster } from './effective';

type Gateway = Cluster['gateways'][number];

/** The Gateway candidates of a cluster: its listed Nodes that are not retired. */
export const activeGateways = (cluster: Cluster): Gateway[] => cluster.gateways.filter((g) => g.retired !== true);

/** Nodes that were Gateways and are kept listed so the delivery removes their annotations. */
export const retiredGateways = (cluster: Cluster): Gateway[] => cluster.gateways.filter((g) => g.retired === true);

/**
 * Another member's Gateway candidates as a member's verification compares its ClusterInfoImport
 * with them: only what the comparison reads, so that replacing a candidate Node under the same
 * stated IP leaves every other member's bundle as it is (synth-clusterset.ts hashes the peers).
 */
export interface GatewayPeer {
  readonly clusterID: string;
  /** the gateway-ip its candidates that are not retired state (Antrea's Gateway IP for that Node) */
  readonly ips: readonly string[];
  /** its candidates that are not retired and state no IP, by Node: any imported IP may be theirs */
  readonly unstated: readonly string[];
}

/**
 * The members whose ClusterInfo `c` imports, with their candidates: every other member that stays
 * (not withdrawing) and has a candidate, in definition order. Empty for a cluster that is not such
 * a member itself.
 */
export function gatewayPeers(clusters: readonly EffectiveCluster[], c: EffectiveCluster): GatewayPeer[] {
  if (!isActiveMember(c)) return [];
  return activeMembers(clusters)
    .filter((o) => o.clusterID !== c.clusterID && activeGateways(o.cluster).length > 0)
    .map((o) => {
      const candidates = activeGateways(o.cluster);
      return {
        clusterID: o.clusterID,
        ips: candidates.flatMap((g) => (g.ip === undefined ? [] : [g.ip])),
        unstated: candidates.flatMap((g) => (g.ip === undefined ? [g.node] : [])),
      };
    });
}
