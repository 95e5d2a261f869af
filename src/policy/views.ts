import type { Cidr } from './ip-block';
import type { ContainerPort, InventoryNamespace, InventoryPod } from './inventory';

/** The Pod a policy applies to: a local Pod of the evaluating cluster. */
export interface Subject {
  readonly cluster: string;
  readonly namespace: InventoryNamespace;
  readonly pod: InventoryPod;
}

/**
 * The address a rule compares with `ipBlock`: known, unknown (with where it must lie, e.g. the
 * Pod CIDRs of its cluster, so a CIDR outside them still decides), or none (no address at all).
 */
export type Address =
  | {
      readonly kind: 'ip';
      readonly ip: bigint;
      readonly text: string;
      /** a dual-stack Pod: the connection may use its address of the other family (unknown when the inventory does not state it) */
      readonly otherFamily?: Address;
    }
  | UnknownAddress;
export interface UnknownAddress {
  readonly kind: 'unknown';
  readonly reason: string;
  readonly within: readonly Cidr[];
}

export interface PeerPod {
  readonly cluster: string;
  readonly namespace: InventoryNamespace;
  readonly pod: InventoryPod;
  /** a Pod of the evaluating cluster: every selector may match it */
  readonly local: boolean;
  /** a Pod of another member whose label identities reach the evaluating cluster (both run stretched policy) */
  readonly labelIdentity: boolean;
}

/** The other end of the connection, as the rules of one direction see it. */
export interface PeerView {
  /** the peer as a Pod selectors can match: the source (ingress) or the destination after DNAT (egress) */
  readonly pod?: PeerPod;
  readonly address: Address;
  /** egress: the Service the connection is addressed to, by the evaluating cluster's names */
  readonly service?: { readonly namespace: string; readonly name: string };
  /** the destination port as the rule sees it (after DNAT) */
  readonly protocol: string;
  readonly port: number;
  /** the destination Pod's container ports, to resolve named ports; undefined: not stated */
  readonly destinationPorts?: readonly ContainerPort[];
}
