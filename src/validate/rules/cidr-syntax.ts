import type { ModelRule } from '../rule';
import { addressValues, describeValue, type AddressValue } from '../addresses';
import { MISSING_PREFIX_LENGTH, parseAddress } from '../cidr';

export const cidrSyntax: ModelRule = {
  id: 'cidr-syntax',
  severity: 'error',
  description: 'a Pod CIDR, Service CIDR or Gateway IP does not parse',
  validate({ clusters, report }) {
    for (const v of addressValues(clusters)) {
      if (v.parsed.ok) continue;
      report({ path: v.path, message: `${describeValue(v)} is not valid: ${v.parsed.reason}`, hint: hintFor(v) });
    }
  },
};

function hintFor(v: AddressValue): string {
  if (v.field === 'gatewayIP') {
    const address = v.text.slice(0, v.text.indexOf('/'));
    return v.text.includes('/') && parseAddress(address).ok
      ? `a Gateway IP is one address, not a range: write "${address}"`
      : 'write one dotted IPv4 address, e.g. "192.168.200.102"';
  }
  if (!v.parsed.ok && v.parsed.reason === MISSING_PREFIX_LENGTH) return `add the prefix length, e.g. "${v.text}/16"`;
  return 'write an IPv4 CIDR: a dotted address, "/" and a prefix length from 0 to 32, e.g. "10.244.0.0/16"';
}
