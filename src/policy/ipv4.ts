/** IPv4 addresses and CIDRs as 32-bit numbers: what an `ipBlock` compares. */

export function parseIPv4(s: string): number | undefined {
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(s);
  if (!m) return undefined;
  const parts = m.slice(1).map(Number);
  if (parts.some((p) => p > 255)) return undefined;
  return ((parts[0]! << 24) | (parts[1]! << 16) | (parts[2]! << 8) | parts[3]!) >>> 0;
}

export interface Cidr {
  readonly base: number;
  readonly bits: number;
  readonly text: string;
}

export function parseCidr(s: string): Cidr | undefined {
  const [addr, len] = s.split('/');
  const base = addr === undefined ? undefined : parseIPv4(addr);
  const bits = len === undefined ? 32 : Number(len);
  if (base === undefined || !Number.isInteger(bits) || bits < 0 || bits > 32) return undefined;
  return { base, bits, text: s };
}

/** Whether the address is in the CIDR (host bits of the CIDR ignored, as net.ParseCIDR masks them). */
export function inCidr(cidr: Cidr, ip: number): boolean {
  if (cidr.bits === 0) return true;
  const mask = (~0 << (32 - cidr.bits)) >>> 0;
  return (cidr.base & mask) >>> 0 === (ip & mask) >>> 0;
}
