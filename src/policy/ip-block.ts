import { parseAddress, parseCidr as parsePrefix, rangeContains, type IpFamily } from '../validate/cidr';

/**
 * IPv4 and IPv6 addresses and CIDRs: what an `ipBlock` compares. Parsed by the validator's own
 * rules (`validate/cidr.ts`: Go's net package, no leading zeros, no short forms, no zones), which
 * number IPv6 above 2^128: a block of one family never contains an address of the other, as an
 * OVS flow matches `ip` or `ipv6` by the CIDR's family (pkg/agent/openflow network_policy.go).
 */
export interface IpAddress {
  readonly value: bigint;
  readonly family: IpFamily;
}

/**
 * Addresses already parsed: evaluating connections asks for the same few Pod and Gateway addresses
 * once per leg of every pair (a third of a policy plan's time went to parsing them again). The
 * answers are immutable; the memo is emptied when it grows past a fleet's worth of addresses.
 */
const parsedIPs = new Map<string, IpAddress | undefined>();

export function parseIP(s: string): IpAddress | undefined {
  if (parsedIPs.has(s)) return parsedIPs.get(s);
  const r = parseAddress(s);
  const ip = r.ok ? Object.freeze({ value: r.prefix.address, family: r.prefix.family }) : undefined;
  if (parsedIPs.size >= 100_000) parsedIPs.clear();
  parsedIPs.set(s, ip);
  return ip;
}

export interface Cidr {
  readonly first: bigint;
  readonly last: bigint;
  readonly family: IpFamily;
  readonly bits: number;
  readonly text: string;
}

/** A CIDR, or a bare address as its /32 or /128 (host bits of the CIDR ignored, as net.ParseCIDR masks them). */
export function parseCidr(s: string): Cidr | undefined {
  const r = s.includes('/') ? parsePrefix(s) : parseAddress(s);
  return r.ok ? { first: r.prefix.first, last: r.prefix.last, family: r.prefix.family, bits: r.prefix.length, text: s } : undefined;
}

/** Whether the address is in the CIDR: never across families. */
export const inCidr = (cidr: Cidr, ip: bigint): boolean => rangeContains(cidr, ip);

/** The first host of an IPv4 CIDR plus `n`, in dotted decimal (representative endpoints' addresses). */
export function ipv4Host(cidr: Cidr, n: number): string | undefined {
  if (cidr.family !== 4) return undefined;
  const v = Number(cidr.first) + n;
  return [24, 16, 8, 0].map((s) => ((v >>> s) & 255).toString()).join('.');
}
