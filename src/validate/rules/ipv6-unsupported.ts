import type { ModelRule } from '../rule';
import { addressValues, describeValue } from '../addresses';

export const ipv6Unsupported: ModelRule = {
  id: 'ipv6-unsupported',
  severity: 'error',
  description: 'an IPv6 CIDR or Gateway IP in a multi-cluster field',
  validate({ clusters, report }) {
    for (const v of addressValues(clusters)) {
      if (!v.parsed.ok || v.parsed.prefix.family !== 6) continue;
      report({
        path: v.path,
        message: `${describeValue(v)} is IPv6`,
        hint: `Antrea Multi-cluster is IPv4-only; write the cluster's IPv4 ${v.field === 'gatewayIP' ? 'address' : 'range'} (dual-stack clusters: the IPv4 one)`,
      });
    }
  },
};
