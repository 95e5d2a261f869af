import type { ModelRule } from '../rule';
import { declaredHere, memberIpv4Values, overlapMessage } from '../addresses';
import { overlappingPairs } from '../cidr';

export const podServiceCidrOverlap: ModelRule = {
  id: 'pod-service-cidr-overlap',
  severity: 'error',
  description: 'a Pod CIDR overlaps a Service CIDR, in one cluster or across clusters',
  validate({ clusters, report }) {
    const ranges = memberIpv4Values(clusters).filter((v) => v.field !== 'gatewayIP');
    // Pod vs Pod and Service vs Service are the other overlap rules' business
    const pairs = overlappingPairs(
      ranges,
      (v) => v.field,
      (a, b) => a !== b,
    );
    for (const { first, second } of pairs) {
      report({
        path: second.path,
        message: overlapMessage(second, first),
        hint: 'Pod and Service ranges must be disjoint across the whole ClusterSet; move one of them to a free range',
        related: [declaredHere(first)],
      });
    }
  },
};
