/**
 * Sub-schemas that several core CRDs share: selectors, peers, ports, rules, conditions.
 * Where Antrea's generated schemas differ slightly between kinds (a pattern present or not,
 * `matchLabels` typed or preserved), the variant is a parameter here rather than a second copy.
 */
import type { PrinterColumn } from '../../../crd';
import { array, boolean, enumOf, int32, integer, intOrString, map, number, object, required, string, type Extra, type Schema } from '../../../schema';

export const GROUP = 'crd.antrea.io';
/** The label most core CRDs carry; `groups`, `bgppolicies` and a few others ship without it. */
export const APP_LABEL = { app: 'antrea' } as const;
export const STATUS_SUBRESOURCE = { status: {} } as const;

// ---- scalars

/** A Kubernetes label value (empty, or alphanumeric at both ends). */
export const labelValue = (): Schema => string({ pattern: '^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$' });

/** An IPv4 or IPv6 address, written as Antrea does: a string with two alternative formats. */
export const ipAddress = (extra: Extra = {}): Schema => string({ oneOf: [{ format: 'ipv4' }, { format: 'ipv6' }], ...extra });

export const cidr = (): Schema => string({ format: 'cidr' });

/** An inclusive integer range, the common way Antrea bounds ports, TTLs and protocol numbers. */
export const intRange = (minimum: number, maximum: number, extra: Extra = {}): Schema => integer({ minimum, maximum, ...extra });
export const int32Range = (minimum: number, maximum: number, extra: Extra = {}): Schema => int32({ minimum, maximum, ...extra });
export const portNumber = (): Schema => intRange(1, 65535);

/** `oneOf`/`anyOf` alternatives that each only require some keys. */
export const requiredAlternatives = (...alternatives: readonly (string | readonly string[])[]): Schema[] =>
  alternatives.map((a) => ({ required: typeof a === 'string' ? [a] : a }));

/** `x-kubernetes-preserve-unknown-fields` with no type, as some selectors' `matchLabels` are declared. */
export const anyFields = (): Schema => ({ 'x-kubernetes-preserve-unknown-fields': true });

// ---- selectors and references

export interface LabelSelectorVariant {
  /** values in `matchExpressions` are checked as label values */
  readonly patternedValues: boolean;
  /** `typed`: a map of label values; `preserved`: any fields kept as they are */
  readonly matchLabels: 'typed' | 'preserved';
}

export const labelSelector = (variant: LabelSelectorVariant = { patternedValues: true, matchLabels: 'typed' }): Schema =>
  object({
    matchExpressions: array(
      object({
        key: string(),
        operator: enumOf(['In', 'NotIn', 'Exists', 'DoesNotExist']),
        values: array(variant.patternedValues ? labelValue() : string()),
      }),
    ),
    matchLabels: variant.matchLabels === 'typed' ? map(labelValue()) : anyFields(),
  });

/** The selector shape of the newer CRDs (BGPPolicy, TrafficControl, ...): patterned values, free `matchLabels`. */
export const looseLabelSelector = (): Schema => labelSelector({ patternedValues: true, matchLabels: 'preserved' });

/** A `name` + `namespace` pair where both are required (ServiceAccount, Service references). */
export const namespacedName = (): Schema => required(['name', 'namespace'], { name: string(), namespace: string() });

/** A `name` + `namespace` pair where neither is required. */
export const optionalNamespacedName = (): Schema => object({ name: string(), namespace: string() });

/** core/v1 ObjectReference. */
export const objectReference = (): Schema =>
  object({
    kind: string(),
    namespace: string(),
    name: string(),
    uid: string(),
    apiVersion: string(),
    resourceVersion: string(),
    fieldPath: string(),
  });

export const ipBlock = (): Schema => object({ cidr: cidr(), except: array(cidr()) });

// ---- status

/** The condition shape Antrea's statuses use: every field a plain string. */
export const condition = (): Schema =>
  object({
    type: string(),
    status: string(),
    lastTransitionTime: string(),
    reason: string(),
    message: string(),
  });
export const conditions = (): Schema => array(condition());

export const ageColumn: PrinterColumn = { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' };

// ---- network policy pieces (ClusterNetworkPolicy and the namespaced NetworkPolicy)

export const ruleAction = (): Schema => enumOf(['Allow', 'Drop', 'Reject', 'Pass']);

export const networkPolicyPorts = (): Schema =>
  array(
    object({
      protocol: enumOf(['TCP', 'UDP', 'SCTP']),
      port: intOrString(),
      endPort: integer(),
      sourcePort: integer(),
      sourceEndPort: integer(),
    }),
  );

/** ICMP or IGMP match; the IGMP message types allowed differ by direction (query in, reports out). */
export const networkPolicyProtocols = (igmpTypes: readonly number[]): Schema =>
  array(
    object(
      {
        icmp: object({ icmpType: intRange(0, 255), icmpCode: intRange(0, 255) }),
        igmp: object({ igmpType: integer({ enum: igmpTypes }), groupAddress: ipAddress() }),
      },
      { oneOf: requiredAlternatives('icmp', 'igmp') },
    ),
  );
export const IGMP_QUERY = [17] as const;
export const IGMP_REPORTS = [18, 22, 34] as const;

export const l7Protocols = (): Schema =>
  array(
    object(
      {
        http: object({
          host: string(),
          method: enumOf(['GET', 'POST', 'PUT', 'HEAD', 'DELETE', 'TRACE', 'OPTIONS', 'CONNECT', 'PATCH']),
          path: string(),
        }),
        tls: object({ sni: string() }),
      },
      { oneOf: requiredAlternatives('http', 'tls') },
    ),
  );

/** `namespaces` peer field of cluster-scoped policies: exactly one way to pick Namespaces. */
export const peerNamespaces = (): Schema => object({ match: enumOf(['Self']), sameLabels: array(string()) }, { minProperties: 1, maxProperties: 1 });

export const peerScope = (): Schema => enumOf(['Cluster', 'ClusterSet']);

/** A list of peers or appliedTo targets, each an object of the given selector fields. */
export const targets = (fields: Record<string, Schema>): Schema => array(object(fields));

/** The fields every policy rule has; the peer list and extras differ per kind and direction. */
export const policyRule = (fields: {
  appliedTo: Schema;
  igmpTypes: readonly number[];
  peers: Record<string, Schema>;
  extra?: Record<string, Schema>;
}): Schema =>
  required(['action'], {
    appliedTo: fields.appliedTo,
    action: ruleAction(),
    ports: networkPolicyPorts(),
    protocols: networkPolicyProtocols(fields.igmpTypes),
    l7Protocols: l7Protocols(),
    ...fields.peers,
    ...fields.extra,
    name: string(),
    enableLogging: boolean(),
    logLabel: string({ pattern: '^(([A-Za-z0-9][-A-Za-z0-9_.]{0,61})?[A-Za-z0-9])?$' }),
  });

/** Tier and priority, the ordering fields both policy kinds start with. */
export const policyOrdering = (): Record<string, Schema> => ({
  tier: string(),
  priority: number({ format: 'float', minimum: 1, maximum: 10000 }),
});

export const policyStatus = (): Schema =>
  object({
    phase: string(),
    observedGeneration: integer(),
    currentNodesRealized: integer(),
    desiredNodesRealized: integer(),
    conditions: conditions(),
  });

export const policyPrinterColumns: readonly PrinterColumn[] = [
  { name: 'Tier', type: 'string', jsonPath: '.spec.tier' },
  { name: 'Priority', type: 'number', format: 'float', jsonPath: '.spec.priority' },
  { name: 'Desired Nodes', type: 'number', format: 'int32', jsonPath: '.status.desiredNodesRealized' },
  { name: 'Current Nodes', type: 'number', format: 'int32', jsonPath: '.status.currentNodesRealized' },
  ageColumn,
];

// ---- AntreaAgentInfo / AntreaControllerInfo

/** A health condition of an info object: typed, with a heartbeat instead of a transition time. */
export const healthCondition = (type: Schema): Schema =>
  required(['type', 'status', 'lastHeartbeatTime'], {
    lastHeartbeatTime: string({ format: 'date-time' }),
    type,
    status: enumOf(['True', 'False', 'Unknown']),
    reason: string(),
    message: string(),
  });

export const networkPolicyControllerInfo = (): Schema => object({ networkPolicyNum: int32(), addressGroupNum: int32(), appliedToGroupNum: int32() });

// ---- IP pools (ExternalIPPool, IPPool)

/** A pool range: a CIDR, or a start/end pair. */
export const ipRange = (): Schema => object({ cidr: cidr(), start: ipAddress(), end: ipAddress() }, { oneOf: requiredAlternatives('cidr', ['start', 'end']) });

export const vlanId = (): Schema => intRange(0, 4094);

/** Gateway, prefix length and VLAN of the subnet a pool's addresses live in. */
export const subnetInfo = (immutable = false): Schema => {
  const frozen = (what: string): Extra => (immutable ? { 'x-kubernetes-validations': [{ rule: 'self == oldSelf', message: `${what} is immutable` }] } : {});
  return required(['gateway', 'prefixLength'], {
    gateway: ipAddress(frozen('gateway')),
    prefixLength: intRange(1, 127, frozen('prefixLength')),
    vlan: vlanId(),
  });
};

export const ipPoolUsage = (): Schema => object({ total: integer(), used: integer() });

export const ipPoolUsageColumns: readonly PrinterColumn[] = [
  { name: 'Total', type: 'integer', jsonPath: '.status.usage.total' },
  { name: 'Used', type: 'integer', jsonPath: '.status.usage.used' },
];

// ---- packet descriptions (Traceflow, PacketCapture)

/** Source and destination port fields of a UDP or TCP header. */
export const transportPorts = (): Record<string, Schema> => ({ srcPort: portNumber(), dstPort: portNumber() });
