import type { ModelRule } from '../rule';
import { addressValues, describeValue } from '../addresses';
import { formatNetwork, hasHostBits } from '../cidr';

export const cidrHostBits: ModelRule = {
  id: 'cidr-host-bits',
  severity: 'warning',
  description: 'a CIDR has host bits set (10.10.1.1/16)',
  validate({ clusters, report }) {
    for (const v of addressValues(clusters)) {
      // IPv6 values are ipv6-unsupported's; Gateway IPs are addresses, not ranges
      if (v.field === 'gatewayIP' || !v.parsed.ok || v.parsed.prefix.family !== 4 || !hasHostBits(v.parsed.prefix)) continue;
      const network = formatNetwork(v.parsed.prefix);
      report({
        path: v.path,
        message: `${describeValue(v)} has host bits set`,
        hint: `write the network address "${network}" (the range is read as "${network}" either way)`,
      });
    }
  },
};
