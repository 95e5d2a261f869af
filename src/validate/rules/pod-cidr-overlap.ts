import type { ModelRule } from '../rule';
import { declaredHere, memberIpv4Values, overlapMessage } from '../addresses';
import { overlappingPairs } from '../cidr';

export const podCidrOverlap: ModelRule = {
  id: 'pod-cidr-overlap',
  severity: 'error',
  description: 'Pod CIDRs of two members overlap, or repeat within one member, with PodIP endpoints or Pod-to-Pod connectivity',
  validate({ clusters, report }) {
    const pods = memberIpv4Values(clusters, 'podCIDR');
    // a member routing to Pod IPs installs a route per remote Pod CIDR: it collides when either side routes
    const kind = (v: (typeof pods)[number]) => (v.cluster.network.endpointIPType === 'PodIP' || v.cluster.network.podToPodConnectivity ? 'routed' : 'local');
    const pairs = overlappingPairs(pods, kind, (a, b) => a === 'routed' || b === 'routed');
    for (const { first, second } of pairs) {
      report({
        path: second.path,
        message: overlapMessage(second, first),
        hint:
          second.cluster === first.cluster
            ? 'list each Pod range of a cluster once'
            : 'with PodIP endpoints or Pod-to-Pod connectivity every member needs its own Pod range; check the CIDR for a copy-paste slip',
        related: [declaredHere(first)],
      });
    }
  },
};
