import type { ClusterSet } from '../model/clusterset';
import { effectiveClusters, isActiveMember, type EffectiveCluster } from '../model/effective';
import { exportsWhileWithdrawing } from '../model/withdraw';
import { directionProgram, type DirectionProgram } from './evaluate-direction';
import type { Inventory, InventoryCluster } from './inventory';
import { parseCidr, parseIP, type Cidr } from './ip-block';
import { heldPolicies, type HeldPolicy } from './replication';
import type { Address } from './views';

/** One cluster as the evaluator sees it: what the definition says, what it holds, what runs there. */
export interface ClusterState {
  readonly cluster: EffectiveCluster;
  readonly policies: readonly HeldPolicy[];
  readonly ingress: DirectionProgram;
  readonly egress: DirectionProgram;
  readonly inventory?: InventoryCluster;
  readonly podCIDRs: readonly Cidr[];
  readonly serviceCIDR?: Cidr;
  /** the inventory shows IPv6 Pod addresses (ip, or a dump's podIPs) beside the IPv4 Pod CIDRs: a connection inside may use either family */
  readonly dualStack: boolean;
  /** the address Gateway traffic from this cluster carries; undefined: no Gateway */
  readonly gateway?: Address;
}

/** A definition and an inventory, read once for every query. */
export interface World {
  readonly definition: ClusterSet;
  readonly clusters: ReadonlyMap<string, ClusterState>;
  /** exporting clusters of each multi-cluster Service, `namespace/name` */
  readonly exports: ReadonlyMap<string, readonly string[]>;
}

function gatewayAddress(c: EffectiveCluster): Address | undefined {
  const active = c.cluster.gateways.filter((g) => g.retired !== true);
  if (active.length === 0) return undefined;
  const withIP = active.find((g) => g.ip !== undefined && parseIP(g.ip) !== undefined);
  if (withIP) return { kind: 'ip', ip: parseIP(withIP.ip!)!.value, text: withIP.ip! };
  return { kind: 'unknown', reason: `the Gateway IP of ${c.clusterID} is its Node's IP, which the definition does not state`, within: [] };
}

export function buildWorld(definition: ClusterSet, inventory: Inventory): World {
  const effective = effectiveClusters(definition);
  const clusters = new Map<string, ClusterState>();
  for (const c of effective) {
    const policies = heldPolicies(definition, c);
    const inv = inventory.clusters.get(c.clusterID);
    const serviceCIDR = c.cluster.serviceCIDR ? parseCidr(c.cluster.serviceCIDR) : undefined;
    const gateway = isActiveMember(c) ? gatewayAddress(c) : undefined;
    clusters.set(c.clusterID, {
      cluster: c,
      policies,
      ingress: directionProgram(policies, 'ingress'),
      egress: directionProgram(policies, 'egress'),
      ...(inv && { inventory: inv }),
      podCIDRs: c.cluster.podCIDRs.flatMap((p) => parseCidr(p) ?? []),
      dualStack: [...(inv?.namespaces.values() ?? [])].some((n) =>
        n.pods.some((p) => [p.ip, ...(p.ips ?? [])].some((a) => a !== undefined && parseIP(a)?.family === 6)),
      ),
      ...(serviceCIDR && { serviceCIDR }),
      ...(gateway && { gateway }),
    });
  }
  const active = effective.filter(isActiveMember).map((c) => c.clusterID);
  const exports = new Map<string, string[]>();
  for (const s of exportsWhileWithdrawing(definition, effective).spec.services) {
    const from = s.exportFrom === '*' ? active : s.exportFrom.filter((id) => active.includes(id));
    const key = `${s.namespace}/${s.name}`;
    exports.set(key, [...new Set([...(exports.get(key) ?? []), ...from])]);
  }
  return { definition, clusters, exports };
}
