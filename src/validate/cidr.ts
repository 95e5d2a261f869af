import ipaddr from 'ipaddr.js';

/**
 * Pure IPv4/IPv6 prefix maths for the address rules. Addresses are bigints so that both
 * families compare with plain `<`; a range is `first..last`, both inclusive. IPv6 values sit
 * above 2^128 so that no IPv4 range ever meets an IPv6 one (`::/96` is not `0.0.0.0/0`).
 */

export type IpFamily = 4 | 6;

export interface Range {
  readonly first: bigint;
  readonly last: bigint;
}

/** A parsed CIDR (or a single address, as a /32 or /128). */
export interface Prefix extends Range {
  readonly family: IpFamily;
  /** prefix length */
  readonly length: number;
  /** the address as written, host bits included */
  readonly address: bigint;
}

export type ParseResult = { readonly ok: true; readonly prefix: Prefix } | { readonly ok: false; readonly reason: string };

const BITS: Record<IpFamily, number> = { 4: 32, 6: 128 };
const BASE: Record<IpFamily, bigint> = { 4: 0n, 6: 1n << 128n };
const PREFIX_LENGTH = /^(0|[1-9]\d{0,2})$/;
// dotted decimal without leading zeros; ipaddr.js then rejects octets above 255
const FOUR_PART_DECIMAL = /^(0|[1-9]\d{0,2})(\.(0|[1-9]\d{0,2})){3}$/;

export const MISSING_PREFIX_LENGTH = 'the prefix length is missing';

/** `10.244.0.0/16` or `fd00::/48`; strict: dotted-decimal IPv4 without leading zeros, no zone. */
export function parseCidr(text: string): ParseResult {
  const slash = text.indexOf('/');
  if (slash === -1) {
    return parseAddress(text).ok ? { ok: false, reason: MISSING_PREFIX_LENGTH } : { ok: false, reason: 'it is not a CIDR' };
  }
  const address = parseAddress(text.slice(0, slash));
  if (!address.ok) return address;
  const lengthText = text.slice(slash + 1);
  const bits = BITS[address.prefix.family];
  const length = PREFIX_LENGTH.test(lengthText) ? Number(lengthText) : NaN;
  if (!(length <= bits)) return { ok: false, reason: `the prefix length must be a number from 0 to ${bits}` };
  return { ok: true, prefix: toPrefix(address.prefix.family, address.prefix.address, length) };
}

/** A single IPv4 or IPv6 address, as a full-length prefix. */
export function parseAddress(text: string): ParseResult {
  // ipaddr.js alone also takes "10.1" or "0x0a.0.0.1"; Antrea (Go's net package) does not
  if (FOUR_PART_DECIMAL.test(text)) {
    try {
      const [a, b, c, d] = ipaddr.IPv4.parse(text).octets as [number, number, number, number];
      return { ok: true, prefix: toPrefix(4, BASE[4] + BigInt(a * 2 ** 24 + b * 2 ** 16 + c * 2 ** 8 + d), 32) };
    } catch {
      return { ok: false, reason: 'it is not an IP address' };
    }
  }
  if (text.includes(':') && !text.includes('%') && ipaddr.IPv6.isValid(text)) {
    let n = 0n;
    for (const part of ipaddr.IPv6.parse(text).parts) n = (n << 16n) | BigInt(part);
    return { ok: true, prefix: toPrefix(6, BASE[6] + n, 128) };
  }
  return { ok: false, reason: 'it is not an IP address' };
}

function toPrefix(family: IpFamily, address: bigint, length: number): Prefix {
  const hostBits = BigInt(BITS[family] - length);
  // the family base has no bits below 2^128, so masking leaves it intact
  const first = (address >> hostBits) << hostBits;
  return { family, length, address, first, last: first + (1n << hostBits) - 1n };
}

export const hasHostBits = (p: Prefix): boolean => p.address !== p.first;

/** The canonical network form, e.g. `10.10.0.0/16` for `10.10.1.1/16`. */
export function formatNetwork(p: Prefix): string {
  return `${formatAddress(p.family, p.first)}/${p.length}`;
}

export function formatAddress(family: IpFamily, value: bigint): string {
  const count = family === 4 ? 4 : 16;
  const n = value - BASE[family];
  const bytes: number[] = [];
  for (let i = count - 1; i >= 0; i--) bytes.push(Number((n >> BigInt(i * 8)) & 0xffn));
  return ipaddr.fromByteArray(bytes).toString();
}

export const rangesOverlap = (a: Range, b: Range): boolean => a.first <= b.last && b.first <= a.last;

export const rangeContains = (r: Range, point: bigint): boolean => r.first <= point && point <= r.last;

/** What the sweep needs from a rule's item: a range, a kind and the item's place in the document. */
export interface SweepItem extends Range {
  /** document order: of two overlapping items the later one is reported */
  readonly order: number;
}

export interface OverlapPair<T> {
  /** earlier in the document: the related location */
  readonly first: T;
  /** later in the document: where the diagnostic goes */
  readonly second: T;
}

/**
 * Overlapping pairs in O(n log n): sort by first address and sweep, keeping per kind the item
 * that reaches furthest. An item overlaps some earlier item of a kind exactly when it overlaps
 * that kind's furthest-reaching one, so each overlapping item is paired once, with that one.
 * `conflicts` says which kinds matter to each other (default: every kind with every kind).
 */
export function overlappingPairs<T extends SweepItem, K extends string>(
  items: readonly T[],
  kindOf: (item: T) => K,
  conflicts: (a: K, b: K) => boolean = () => true,
): OverlapPair<T>[] {
  const sorted = [...items].sort((a, b) => (a.first < b.first ? -1 : a.first > b.first ? 1 : a.order - b.order));
  const furthest = new Map<K, T>();
  const pairs: OverlapPair<T>[] = [];
  for (const item of sorted) {
    const kind = kindOf(item);
    for (const [otherKind, other] of furthest) {
      if (other.last >= item.first && conflicts(otherKind, kind)) {
        pairs.push(other.order <= item.order ? { first: other, second: item } : { first: item, second: other });
        break;
      }
    }
    const best = furthest.get(kind);
    if (!best || item.last > best.last) furthest.set(kind, item);
  }
  return pairs;
}

/**
 * A lookup for the ranges containing a point, in O(log n) per point after an O(n log n)
 * sort: among ranges starting at or before the point, the one reaching furthest decides.
 */
export function rangeFinder<T extends Range>(ranges: readonly T[]): (point: bigint) => T | undefined {
  const sorted = [...ranges].sort((a, b) => (a.first < b.first ? -1 : a.first > b.first ? 1 : 0));
  const reach: T[] = [];
  for (const r of sorted) {
    const prev = reach[reach.length - 1];
    reach.push(prev && prev.last >= r.last ? prev : r);
  }
  return (point) => {
    let lo = 0;
    let hi = sorted.length - 1;
    let at = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (sorted[mid]!.first <= point) {
        at = mid;
        lo = mid + 1;
      } else {
        hi = mid - 1;
      }
    }
    const best = at >= 0 ? reach[at] : undefined;
    return best && best.last >= point ? best : undefined;
  };
}
