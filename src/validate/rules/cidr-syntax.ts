import type { ModelRule } from '../rule';
import { addressValues, describeValue, type AddressValue } from '../addresses';

export const cidrSyntax: ModelRule = {
  id: 'cidr-syntax',
  severity: 'error',
  description: 'a Pod CIDR, Service CIDR or Gateway IP does not parse',
  check({ clusters, report }) {
    for (const v of addressValues(clusters)) {
      if (v.parsed.ok) continue;
      report({ path: v.path, message: `${describeValue(v)} is not valid: ${v.parsed.reason}`, hint: hintFor(v) });
    }
  },
};

function hintFor(v: AddressValue): string {
  if (v.field === 'gatewayIP') {
    const slash = v.text.indexOf('/');
    return slash === -1 ? 'write one dotted IPv4 address, e.g. "192.168.200.102"' : `a Gateway IP is one address, not a range: write "${v.text.slice(0, slash)}"`;
  }
  if (!v.text.includes('/')) return `add the prefix length, e.g. "${v.text}/16"`;
  return 'write an IPv4 CIDR: a dotted address, "/" and a prefix length from 0 to 32, e.g. "10.244.0.0/16"';
}
