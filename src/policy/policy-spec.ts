import { parseCidr, type Cidr } from './ip-block';
import { readSelector, type Selector } from './label-selector';

/**
 * An Antrea ClusterNetworkPolicy spec (crd.antrea.io/v1beta1), read into what the evaluator
 * needs. The definition keeps the spec as free-form data (policy-schema checks its shape); what
 * this reader cannot model becomes an `unknown` part with the reason, never a guess.
 */

export type Action = 'Allow' | 'Drop' | 'Reject' | 'Pass';
export type Direction = 'ingress' | 'egress';

/** `namespaces` of a peer: `match: Self` or `sameLabels` (crdv1beta1.PeerNamespaces). */
export type PeerNamespaces = { readonly kind: 'self' } | { readonly kind: 'sameLabels'; readonly keys: readonly string[] };

export type Peer =
  | {
      readonly kind: 'selector';
      readonly podSelector?: Selector;
      readonly namespaceSelector?: Selector;
      readonly namespaces?: PeerNamespaces;
      /** `scope: ClusterSet`: Pods of every member (ingress only; toAntreaPeerForCRD registers it with the LabelIdentity index) */
      readonly clusterSet: boolean;
    }
  /** `except` subtracted from `cidr` (crdv1beta1 toAntreaIPBlockForCRD) */
  | { readonly kind: 'ipBlock'; readonly cidr: Cidr; readonly except: readonly Cidr[] }
  /** matches no Pod and no address (externalEntitySelector selects ExternalEntities only) */
  | { readonly kind: 'none' }
  | { readonly kind: 'unknown'; readonly reason: string };

export interface PortRule {
  readonly protocol: string;
  /** undefined: every port of the protocol */
  readonly port?: number | string;
  readonly endPort?: number;
}

export interface ServiceRef {
  readonly namespace: string;
  readonly name: string;
  readonly clusterSet: boolean;
}

export type AppliedTo =
  | { readonly kind: 'selector'; readonly podSelector?: Selector; readonly namespaceSelector?: Selector }
  | { readonly kind: 'none' }
  | { readonly kind: 'unknown'; readonly reason: string };

export interface Rule {
  readonly direction: Direction;
  /** index in its direction's list: the rule priority (processClusterNetworkPolicy: `Priority: int32(idx)`) */
  readonly index: number;
  readonly name?: string;
  readonly action: Action;
  /** undefined: `from`/`to` absent or empty, which matches every address (toAntreaPeerForCRD's matchAllPeer) */
  readonly peers?: readonly Peer[];
  readonly toServices?: readonly ServiceRef[];
  /** undefined: every port and protocol */
  readonly ports?: readonly PortRule[];
  /** the rule matches something the evaluator cannot know (source ports, an unknown action) */
  readonly unknown?: string;
  /** an L7 rule: where it matches, the requests decide (the verdict is uncertain) */
  readonly l7?: boolean;
  readonly appliedTo?: readonly AppliedTo[];
}

export interface PolicySpec {
  readonly tier: string;
  readonly priority: number;
  readonly appliedTo?: readonly AppliedTo[];
  readonly rules: readonly Rule[];
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const ACTIONS: readonly string[] = ['Allow', 'Drop', 'Reject', 'Pass'];

function selectorOrUnknown(v: unknown): Selector | 'invalid' | undefined {
  return readSelector(v);
}

function readPeer(p: unknown): Peer {
  if (!isRecord(p)) return { kind: 'unknown', reason: 'a peer that is not a map' };
  if (isRecord(p.ipBlock)) {
    const cidr = typeof p.ipBlock.cidr === 'string' ? parseCidr(p.ipBlock.cidr) : undefined;
    const excepts = Array.isArray(p.ipBlock.except) ? (p.ipBlock.except as unknown[]) : [];
    const except = excepts.flatMap((e) => (typeof e === 'string' ? (parseCidr(e) ?? []) : []));
    if (!cidr || except.length !== excepts.length) return { kind: 'unknown', reason: `an ipBlock that is not a CIDR (${JSON.stringify(p.ipBlock)})` };
    return { kind: 'ipBlock', cidr, except };
  }
  if (p.group !== undefined) return { kind: 'unknown', reason: `the ClusterGroup ${JSON.stringify(p.group)} is not in the definition` };
  if (p.fqdn !== undefined) return { kind: 'unknown', reason: `an FQDN peer (${JSON.stringify(p.fqdn)}) resolves at run time` };
  if (p.nodeSelector !== undefined) return { kind: 'unknown', reason: 'a nodeSelector peer matches Nodes, which the inventory does not hold' };
  if (p.serviceAccount !== undefined) return { kind: 'unknown', reason: 'a serviceAccount peer: the inventory does not hold Pods’ ServiceAccounts' };
  if (p.externalEntitySelector !== undefined && p.podSelector === undefined && p.namespaceSelector === undefined) return { kind: 'none' };
  const podSelector = selectorOrUnknown(p.podSelector);
  const namespaceSelector = selectorOrUnknown(p.namespaceSelector);
  if (podSelector === 'invalid' || namespaceSelector === 'invalid') return { kind: 'unknown', reason: 'a selector that is not a label selector' };
  let namespaces: PeerNamespaces | undefined;
  if (isRecord(p.namespaces)) {
    if (p.namespaces.match === 'Self') namespaces = { kind: 'self' };
    else if (Array.isArray(p.namespaces.sameLabels))
      namespaces = { kind: 'sameLabels', keys: p.namespaces.sameLabels.filter((k): k is string => typeof k === 'string') };
    else return { kind: 'unknown', reason: 'a namespaces field the evaluator does not know' };
  }
  return {
    kind: 'selector',
    ...(podSelector && { podSelector }),
    ...(namespaceSelector && { namespaceSelector }),
    ...(namespaces && { namespaces }),
    clusterSet: p.scope === 'ClusterSet',
  };
}

function readAppliedTo(v: unknown): AppliedTo[] | undefined {
  if (!Array.isArray(v) || v.length === 0) return undefined;
  return v.map((a): AppliedTo => {
    if (!isRecord(a)) return { kind: 'unknown', reason: 'an appliedTo entry that is not a map' };
    if (a.group !== undefined) return { kind: 'unknown', reason: `the appliedTo ClusterGroup ${JSON.stringify(a.group)} is not in the definition` };
    if (a.serviceAccount !== undefined) return { kind: 'unknown', reason: 'an appliedTo serviceAccount: the inventory does not hold Pods’ ServiceAccounts' };
    // a Service (NodePort traffic) or ExternalEntities: never a Pod
    if (a.service !== undefined || (a.externalEntitySelector !== undefined && a.podSelector === undefined)) return { kind: 'none' };
    if (a.nodeSelector !== undefined) return { kind: 'none' };
    const podSelector = readSelector(a.podSelector);
    const namespaceSelector = readSelector(a.namespaceSelector);
    if (podSelector === 'invalid' || namespaceSelector === 'invalid') return { kind: 'unknown', reason: 'an appliedTo selector that is not a label selector' };
    return { kind: 'selector', ...(podSelector && { podSelector }), ...(namespaceSelector && { namespaceSelector }) };
  });
}

function readPorts(rule: Record<string, unknown>): { ports?: PortRule[]; unknown?: string } {
  const ports = list(rule.ports);
  const protocols = list(rule.protocols);
  if (ports.length === 0 && protocols.length === 0) return {};
  const out: PortRule[] = [];
  let unknown: string | undefined;
  for (const p of ports) {
    if (!isRecord(p)) continue;
    if (p.sourcePort !== undefined || p.sourceEndPort !== undefined) unknown = 'a sourcePort: source ports are chosen at run time';
    const protocol = typeof p.protocol === 'string' ? p.protocol : 'TCP';
    const port = typeof p.port === 'number' || typeof p.port === 'string' ? p.port : undefined;
    out.push({ protocol, ...(port !== undefined && { port }), ...(typeof p.endPort === 'number' && { endPort: p.endPort }) });
  }
  // `protocols` (ICMP, IGMP) never match TCP, UDP or SCTP: a protocol of its own
  for (const p of protocols) if (isRecord(p)) for (const k of Object.keys(p)) out.push({ protocol: k.toUpperCase() });
  return { ports: out, ...(unknown && { unknown }) };
}

function readRule(direction: Direction, r: unknown, index: number): Rule {
  if (!isRecord(r)) return { direction, index, action: 'Allow', unknown: 'a rule that is not a map' };
  const action = typeof r.action === 'string' && ACTIONS.includes(r.action) ? (r.action as Action) : undefined;
  const peerKey = direction === 'ingress' ? 'from' : 'to';
  const peers = list(r[peerKey]);
  const services = direction === 'egress' ? list(r.toServices) : [];
  const toServices = services.flatMap((s): ServiceRef[] =>
    isRecord(s) && typeof s.name === 'string'
      ? [{ name: s.name, namespace: typeof s.namespace === 'string' ? s.namespace : '', clusterSet: s.scope === 'ClusterSet' }]
      : [],
  );
  const { ports, unknown: portUnknown } = readPorts(r);
  const appliedTo = readAppliedTo(r.appliedTo);
  const unknown = !action ? `an action the evaluator does not know (${String(r.action)})` : portUnknown;
  return {
    direction,
    index,
    action: action ?? 'Allow',
    ...(typeof r.name === 'string' && { name: r.name }),
    // `toServices` alone: only those Services; `to`/`from` absent or empty and no Services: everything
    ...(peers.length > 0 ? { peers: peers.map(readPeer) } : services.length > 0 ? { peers: [] } : {}),
    ...(services.length > 0 && { toServices }),
    ...(ports && { ports }),
    ...(unknown && { unknown }),
    ...(r.l7Protocols !== undefined && { l7: true }),
    ...(appliedTo && { appliedTo }),
  };
}

/** The spec of one policy: Tier as written ("" when absent: a replicated policy gets no default, replication.ts), priority, appliedTo and the rules of both directions. */
export function readPolicySpec(spec: Readonly<Record<string, unknown>>): PolicySpec {
  const appliedTo = readAppliedTo(spec.appliedTo);
  return {
    tier: typeof spec.tier === 'string' ? spec.tier : '',
    priority: typeof spec.priority === 'number' ? spec.priority : 0,
    ...(appliedTo && { appliedTo }),
    rules: [...list(spec.ingress).map((r, i) => readRule('ingress', r, i)), ...list(spec.egress).map((r, i) => readRule('egress', r, i))],
  };
}
