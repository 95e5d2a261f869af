import type { ModelRule } from '../rule';
import { declaredHere, describeValue, memberIpv4Values, type Ipv4Value } from '../addresses';

export const gatewayIpDuplicate: ModelRule = {
  id: 'gateway-ip-duplicate',
  severity: 'error',
  description: 'two clusters declare the same Gateway IP',
  validate({ clusters, report }) {
    const first = new Map<bigint, Ipv4Value>();
    for (const v of memberIpv4Values(clusters, 'gatewayIP')) {
      const earlier = first.get(v.address);
      if (!earlier) {
        first.set(v.address, v);
        continue;
      }
      // candidates of one cluster may share an address (a floating IP); across clusters the tunnel peer is ambiguous
      if (earlier.cluster === v.cluster) continue;
      report({
        path: v.path,
        message: `${describeValue(v)} is also the Gateway IP of cluster "${earlier.cluster.clusterID}"`,
        hint: "each cluster's Gateway needs its own underlay address; check the Node this IP belongs to",
        related: [declaredHere(earlier)],
      });
    }
  },
};
