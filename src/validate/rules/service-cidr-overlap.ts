import type { ModelRule } from '../rule';
import { declaredHere, memberIpv4Values, overlapMessage } from '../addresses';
import { overlappingPairs } from '../cidr';

export const serviceCidrOverlap: ModelRule = {
  id: 'service-cidr-overlap',
  severity: 'error',
  description: "two members' Service CIDRs overlap while endpointIPType is ClusterIP",
  validate({ clusters, report }) {
    const services = memberIpv4Values(clusters, 'serviceCIDR');
    // ClusterIP endpoints of one member are imported into the other: either side using them makes an overlap ambiguous
    const kind = (v: (typeof services)[number]) => (v.cluster.network.endpointIPType === 'ClusterIP' ? 'clusterIP' : 'other');
    const pairs = overlappingPairs(services, kind, (a, b) => a === 'clusterIP' || b === 'clusterIP');
    for (const { first, second } of pairs) {
      report({
        path: second.path,
        message: overlapMessage(second, first),
        hint: 'with ClusterIP endpoints every member needs its own Service range; give one of them a range no other member uses',
        related: [declaredHere(first)],
      });
    }
  },
};
