import type { ModelRule } from '../rule';
import { declaredHere, describeValue, FIELD_LABEL, memberIpv4Values } from '../addresses';
import { rangeFinder } from '../cidr';

export const gatewayIpInCidr: ModelRule = {
  id: 'gateway-ip-in-cidr',
  severity: 'error',
  description: 'a Gateway IP lies inside a Pod or Service CIDR',
  check({ clusters, report }) {
    const values = memberIpv4Values(clusters);
    const containing = rangeFinder(values.filter((v) => v.field !== 'gatewayIP'));
    for (const gateway of values) {
      if (gateway.field !== 'gatewayIP') continue;
      const range = containing(gateway.address);
      if (!range) continue;
      report({
        path: gateway.path,
        message: `${describeValue(gateway)} lies inside ${FIELD_LABEL[range.field]} "${range.text}" of cluster "${range.cluster.clusterID}"`,
        hint: "a Gateway IP is the underlay address remote Gateways tunnel to: use the Node's InternalIP or ExternalIP",
        related: [declaredHere(range)],
      });
    }
  },
};
