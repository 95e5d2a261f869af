import { parseAddress, parseCidr as parsePrefix, type Prefix } from '../validate/cidr';

/**
 * IPv4 addresses and CIDRs as 32-bit numbers: what an `ipBlock` compares. Parsed by the
 * validator's own rules (`validate/cidr.ts`: Go's net package, no leading zeros, no short forms),
 * so the evaluator reads an address as the rules that accepted it do.
 */
const ipv4 = (p: Prefix | undefined): number | undefined => (p?.family === 4 ? Number(p.address) : undefined);

export function parseIPv4(s: string): number | undefined {
  const r = parseAddress(s);
  return r.ok ? ipv4(r.prefix) : undefined;
}

export interface Cidr {
  readonly base: number;
  readonly bits: number;
  readonly text: string;
}

/** A CIDR, or a bare address as its /32. */
export function parseCidr(s: string): Cidr | undefined {
  const r = s.includes('/') ? parsePrefix(s) : parseAddress(s);
  const base = r.ok ? ipv4(r.prefix) : undefined;
  return r.ok && base !== undefined ? { base, bits: r.prefix.length, text: s } : undefined;
}

/** Whether the address is in the CIDR (host bits of the CIDR ignored, as net.ParseCIDR masks them). */
export function inCidr(cidr: Cidr, ip: number): boolean {
  if (cidr.bits === 0) return true;
  const mask = (~0 << (32 - cidr.bits)) >>> 0;
  return (cidr.base & mask) >>> 0 === (ip & mask) >>> 0;
}
