import type { DataPath } from '../diagnostics/diagnostic';
import type { EffectiveCluster } from '../model/effective';
import { parseAddress, parseCidr, type ParseResult, type Prefix } from './cidr';

/** The multi-cluster address fields of a cluster definition. */
export type AddressField = 'podCIDR' | 'serviceCIDR' | 'gatewayIP';

export interface AddressValue {
  readonly cluster: EffectiveCluster;
  readonly field: AddressField;
  readonly text: string;
  readonly path: DataPath;
  /** document order across the whole definition (cluster, then field) */
  readonly order: number;
  readonly parsed: ParseResult;
}

/** An address value that parsed as IPv4: the only family the overlap rules look at. */
export interface Ipv4Value extends AddressValue, Prefix {}

export const FIELD_LABEL: Record<AddressField, string> = {
  podCIDR: 'pod CIDR',
  serviceCIDR: 'service CIDR',
  gatewayIP: 'gateway IP',
};

// runRules hands every rule the same clusters array: parse each definition's values once, not once per rule
const parsedValues = new WeakMap<readonly EffectiveCluster[], readonly AddressValue[]>();
const ipv4Cache = new WeakMap<readonly EffectiveCluster[], readonly Ipv4Value[]>();

/** Every address value written under the given clusters (leader-only ones included), parsed once. */
export function addressValues(clusters: readonly EffectiveCluster[]): readonly AddressValue[] {
  let values = parsedValues.get(clusters);
  if (!values) parsedValues.set(clusters, (values = collect(clusters)));
  return values;
}

function collect(clusters: readonly EffectiveCluster[]): AddressValue[] {
  const values: AddressValue[] = [];
  const add = (cluster: EffectiveCluster, field: AddressField, text: string, path: DataPath) =>
    values.push({ cluster, field, text, path, order: values.length, parsed: field === 'gatewayIP' ? parseAddress(text) : parseCidr(text) });
  for (const c of clusters) {
    const at = c.index;
    c.cluster.podCIDRs.forEach((text, i) => add(c, 'podCIDR', text, ['spec', 'clusters', at, 'podCIDRs', i]));
    if (c.cluster.serviceCIDR !== undefined) add(c, 'serviceCIDR', c.cluster.serviceCIDR, ['spec', 'clusters', at, 'serviceCIDR']);
    c.cluster.gateways.forEach((g, i) => {
      // a retired Gateway's ip is applied nowhere
      if (g.ip !== undefined && g.retired !== true) add(c, 'gatewayIP', g.ip, ['spec', 'clusters', at, 'gateways', i, 'ip']);
    });
  }
  return values;
}

/**
 * The IPv4 values only: values that do not parse or are IPv6 have their own diagnostics
 * (cidr-syntax, ipv6-unsupported), so the other rules skip them and one bad value gives one report.
 */
export function ipv4Values(clusters: readonly EffectiveCluster[]): readonly Ipv4Value[] {
  let values = ipv4Cache.get(clusters);
  if (!values) {
    const list: Ipv4Value[] = [];
    for (const v of addressValues(clusters)) {
      if (!v.parsed.ok || v.parsed.prefix.family !== 4) continue;
      const { family, length, address, first, last } = v.parsed.prefix;
      // a literal, not a spread: spreading 30,000 objects dominated the 10,000-cluster benchmark
      list.push({ cluster: v.cluster, field: v.field, text: v.text, path: v.path, order: v.order, parsed: v.parsed, family, length, address, first, last });
    }
    ipv4Cache.set(clusters, (values = list));
  }
  return values;
}

/** The IPv4 values of member clusters: a dedicated leader carries no cross-cluster traffic. */
export const memberIpv4Values = (clusters: readonly EffectiveCluster[], field?: AddressField): Ipv4Value[] =>
  ipv4Values(clusters).filter((v) => v.cluster.isMember && (field === undefined || v.field === field));

/** `pod CIDR "10.244.0.0/20" of cluster "cl1"`: messages start lowercase */
export const describeValue = (v: AddressValue): string => `${FIELD_LABEL[v.field]} "${v.text}" of cluster "${v.cluster.clusterID}"`;

/** The message of an overlap between two values, reported at `second`. */
export function overlapMessage(second: AddressValue, first: AddressValue): string {
  return second.cluster === first.cluster
    ? `${describeValue(second)} overlaps its ${FIELD_LABEL[first.field]} "${first.text}"`
    : `${describeValue(second)} overlaps ${describeValue(first)}`;
}

/** The related location naming the other value of a pair. */
export const declaredHere = (v: AddressValue) => ({
  path: v.path,
  message: `cluster "${v.cluster.clusterID}" declares ${FIELD_LABEL[v.field]} "${v.text}" here`,
});
