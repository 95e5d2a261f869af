import type { Cluster } from './clusterset';
import { activeMembers, isActiveMember, type EffectiveCluster } from './effective';

type Gateway = Cluster['gateways'][number];

/** The Gateway candidates of a cluster: its listed Nodes that are not retired. */
export const activeGateways = (cluster: Cluster): Gateway[] => cluster.gateways.filter((g) => g.retired !== true);

/** Nodes that were Gateways and are kept listed so the delivery removes their annotations. */
export const retiredGateways = (cluster: Cluster): Gateway[] => cluster.gateways.filter((g) => g.retired === true);

/** Another member's Gateway candidates as a member's verification compares its ClusterInfoImport with them. */
export interface GatewayPeer {
  readonly clusterID: string;
  /** its candidates that are not retired, with the gateway-ip each states (Antrea's Gateway IP for that Node when stated) */
  readonly candidates: readonly { readonly node: string; readonly ip?: string }[];
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
    .map((o) => ({ clusterID: o.clusterID, candidates: activeGateways(o.cluster).map((g) => ({ node: g.node, ...(g.ip !== undefined && { ip: g.ip }) })) }));
}
