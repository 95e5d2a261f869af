import { rangesOverlap } from '../validate/cidr';
import { inCidr, type Cidr } from './ip-block';
import type { InventoryNamespace, InventoryPod } from './inventory';
import { matches } from './label-selector';
import type { AppliedTo, Peer, PortRule, Rule } from './policy-spec';
import { all, any, not, type Tri } from './tri-state';
import type { Address, PeerView, Subject } from './views';

/**
 * Whether one rule of a held policy matches a connection, from Antrea's rules:
 * pkg/controller/networkpolicy/crd_utils.go toAntreaPeerForCRD (peers: selectors, ipBlock,
 * ClusterGroup, FQDN, nodeSelector; `scope: ClusterSet` adds the peer's label identities of every
 * member, and only where stretched policy is on), svcRefToPeerForCRD (toServices: the ClusterSet
 * scope names `antrea-mc-<name>` and is dropped without stretched policy) and toAntreaServicesForCRD
 * (ports, endPort, protocols).
 */

/** `ipBlock` against the address the rule sees; an unknown address decides when the CIDR covers or misses all it may be. */
export function addressIn(cidr: Cidr, address: Address, except: readonly Cidr[] = []): Tri {
  // a dual-stack address is evaluated once per family (familyLegs in evaluate-connection.ts)
  if (address.kind === 'ip') return inCidr(cidr, address.ip) && !except.some((e) => inCidr(e, address.ip));
  if (except.length > 0) return all([() => addressIn(cidr, address), () => not(any(except.map((e) => () => addressIn(e, address))))]);
  if (address.within.length > 0) {
    const overlaps = address.within.filter((w) => rangesOverlap(cidr, w));
    if (overlaps.length === 0) return false;
    if (address.within.every((w) => cidr.first <= w.first && w.last <= cidr.last)) return true;
  }
  return { unknown: address.reason };
}

/**
 * A selector peer against a Pod. A ClusterNetworkPolicy's podSelector alone selects in every
 * Namespace; `namespaces: {match: Self}` keeps the appliedTo Pod's Namespace and `sameLabels` the
 * Namespaces whose values of those keys equal its own (an appliedTo Namespace without every key
 * gets no peers) — by Namespace name and labels, also for Pods of other members.
 */
function selectorMatches(peer: Extract<Peer, { kind: 'selector' }>, ns: InventoryNamespace, pod: InventoryPod, subject: Subject): boolean {
  if (peer.podSelector && !matches(peer.podSelector, pod.labels)) return false;
  const n = peer.namespaces;
  if (n?.kind === 'self') return ns.name === subject.namespace.name;
  if (n?.kind === 'sameLabels') {
    const own = subject.namespace.labels;
    return n.keys.every((k) => Object.hasOwn(own, k) && ns.labels[k] === own[k]);
  }
  return peer.namespaceSelector ? matches(peer.namespaceSelector, ns.labels) : true;
}

export function peerMatches(peer: Peer, rule: Rule, view: PeerView, subject: Subject, stretched: boolean): Tri {
  switch (peer.kind) {
    case 'none':
      return false;
    case 'unknown':
      return { unknown: peer.reason };
    case 'ipBlock':
      return addressIn(peer.cidr, view.address, peer.except);
    case 'selector': {
      const p = view.pod;
      if (!p) return false;
      if (p.local) return selectorMatches(peer, p.namespace, p.pod, subject);
      // another member's Pod: only an ingress peer of ClusterSet scope, through its label identity
      // (egress `to` selectors never select another cluster's Pods)
      if (rule.direction !== 'ingress' || !peer.clusterSet || !stretched || !p.labelIdentity) return false;
      return selectorMatches(peer, p.namespace, p.pod, subject);
    }
  }
}

/** A named port resolves against the destination Pod's container ports, which the inventory may not state. */
function portMatches(rule: PortRule, view: PeerView): Tri {
  if (rule.protocol !== view.protocol) return false;
  if (rule.port === undefined) return true;
  if (typeof rule.port === 'number') return view.port >= rule.port && view.port <= (rule.endPort ?? rule.port);
  if (!view.destinationPorts) return { unknown: `the named port ${rule.port}: the destination Pod's container ports are not stated` };
  return view.destinationPorts.some((c) => c.name === rule.port && c.protocol === view.protocol && c.containerPort === view.port);
}

export function portsMatch(rule: Rule, view: PeerView): Tri {
  return rule.ports === undefined ? true : any(rule.ports.map((p) => () => portMatches(p, view)));
}

export function appliedToMatches(appliedTo: readonly AppliedTo[] | undefined, subject: Subject): Tri {
  if (!appliedTo) return false;
  return any(
    appliedTo.map((a): Tri => {
      if (a.kind === 'none') return false;
      if (a.kind === 'unknown') return { unknown: a.reason };
      if (a.podSelector && !matches(a.podSelector, subject.pod.labels)) return false;
      return a.namespaceSelector ? matches(a.namespaceSelector, subject.namespace.labels) : true;
    }),
  );
}

/** The peers of the rule: `from`/`to` (absent: every address) or toServices. */
function peersMatch(rule: Rule, view: PeerView, subject: Subject, stretched: boolean): Tri {
  if (rule.peers === undefined) return true;
  const services = (rule.toServices ?? []).map((ref): Tri => {
    if (!view.service || view.service.namespace !== ref.namespace) return false;
    if (!ref.clusterSet) return view.service.name === ref.name;
    return stretched && view.service.name === `antrea-mc-${ref.name}`;
  });
  return any([...services, ...rule.peers.map((p) => () => peerMatches(p, rule, view, subject, stretched))]);
}

/** The rule, in a policy whose appliedTo is `policyAppliedTo`, against the subject and the view. */
export function ruleMatches(rule: Rule, policyAppliedTo: readonly AppliedTo[] | undefined, subject: Subject, view: PeerView, stretched: boolean): Tri {
  return all([
    () => appliedToMatches(rule.appliedTo ?? policyAppliedTo, subject),
    () => portsMatch(rule, view),
    () => peersMatch(rule, view, subject, stretched),
    () => (rule.unknown ? { unknown: rule.unknown } : true),
  ]);
}
