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
 * The most other members a member's verification compares its ClusterInfoImports with. Each one is
 * a check in the member's script and a name in its Role, so the fleet's output would grow with the
 * square of the ClusterSet's size (785 MB for one ClusterSet of 1,000 clusters, and a script past
 * the API server's 1 MiB object limit near 1,700 members), and every member would be rebuilt when
 * any one's candidates change. Beyond it, the members' Jobs leave that comparison to `status`
 * (gateway-known), which reads every member at once.
 */
export const MAX_GATEWAY_PEERS = 20;

/**
 * Every member whose ClusterInfo the others import, with what their verification compares: the
 * members that stay (not withdrawing) and have a candidate, in definition order; none when there
 * are more than MAX_GATEWAY_PEERS + 1 of them. Computed once per ClusterSet (`peersOf` per member).
 */
export function gatewayPeerList(clusters: readonly EffectiveCluster[]): GatewayPeer[] {
  const members = activeMembers(clusters).filter((o) => activeGateways(o.cluster).length > 0);
  if (members.length > MAX_GATEWAY_PEERS + 1) return [];
  return members.map((o) => {
    const candidates = activeGateways(o.cluster);
    return {
      clusterID: o.clusterID,
      ips: candidates.flatMap((g) => (g.ip === undefined ? [] : [g.ip])),
      unstated: candidates.flatMap((g) => (g.ip === undefined ? [g.node] : [])),
    };
  });
}

/** The peers `c` imports from, of a ClusterSet's list: every other one; none for a cluster that is not an active member. */
export const peersOf = (list: readonly GatewayPeer[], c: EffectiveCluster): GatewayPeer[] =>
  isActiveMember(c) ? list.filter((p) => p.clusterID !== c.clusterID) : [];
