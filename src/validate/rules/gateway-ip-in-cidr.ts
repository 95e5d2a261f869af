import type { ModelRule } from '../rule';
import { declaredHere, describeValue, FIELD_LABEL, memberIpv4Values } from '../addresses';
import { rangeFinder } from '../cidr';

export const gatewayIpInCidr: ModelRule = {
  id: 'gateway-ip-in-cidr',
  severity: 'error',
  description: 'a Gateway IP lies inside a Pod or Service CIDR',
  validate({ clusters, report }) {
    const values = memberIpv4Values(clusters);
    // In networkPolicyOnly mode the primary CNI (e.g. the VPC CNI on EKS) gives Pods addresses
    // from the Node network, so a Gateway's Node address may lie in that cluster's Pod range.
    const sharesNodeNetwork = (v: (typeof values)[number]) => v.field === 'podCIDR' && v.cluster.network.trafficEncapMode === 'networkPolicyOnly';
    const containing = rangeFinder(values.filter((v) => v.field !== 'gatewayIP' && !sharesNodeNetwork(v)));
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
