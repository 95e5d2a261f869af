import { podServiceCidrOverlap } from '../../../src/validate/rules/pod-service-cidr-overlap';
import { ruleTester } from '../../helpers/rule-tester';
import { source } from '../../helpers/source';
import { LATEST } from '../../helpers/releases';
import { overlapBoundary } from '../../helpers/overlap-boundary';

const BOUNDARY = overlapBoundary('podCIDRs', 'serviceCIDR');
ruleTester(podServiceCidrOverlap, {
  valid: [
    source`
      spec:
        antrea: { version: ${LATEST} }
        leader: { clusterID: a, server: https://a:6443 }
        clusters:
          - { clusterID: a, podCIDRs: [10.244.0.0/20], serviceCIDR: 10.96.0.0/20 }
          - { clusterID: b, podCIDRs: [10.244.16.0/20], serviceCIDR: 10.96.16.0/20 }`,
    {
      name: 'Pod vs Pod and Service vs Service are other rules',
      code: source`
        spec:
          antrea: { version: ${LATEST} }
          leader: { clusterID: a, server: https://a:6443 }
          clusters:
            - { clusterID: a, podCIDRs: [10.244.0.0/16], serviceCIDR: 10.96.0.0/12 }
            - { clusterID: b, podCIDRs: [10.244.0.0/16], serviceCIDR: 10.96.0.0/12 }`,
    },
    // #49 item 15: adjacent ranges share no address (test/helpers/overlap-boundary.ts)
    ...BOUNDARY.valid,
  ],
  invalid: [
    {
      name: 'in one cluster',
      code: source`
        spec:
          antrea: { version: ${LATEST} }
          leader: { clusterID: a, server: https://a:6443 }
          clusters:
            - clusterID: a
              podCIDRs: [10.96.0.0/16]
              serviceCIDR: 10.96.0.0/20`,
      diagnostics: [{ line: 7, column: 20, related: [{ line: 6, column: 18 }] }],
    },
    {
      name: 'across clusters, whatever the endpoint type',
      code: source`
        spec:
          antrea: { version: ${LATEST} }
          network: { endpointIPType: PodIP }
          leader: { clusterID: a, server: https://a:6443 }
          clusters:
            - { clusterID: a, podCIDRs: [10.244.0.0/16], serviceCIDR: 10.96.0.0/16 }
            - { clusterID: b, podCIDRs: [10.245.0.0/16], serviceCIDR: 10.244.128.0/20 }`,
      diagnostics: [{ line: 7, column: 63, related: [{ line: 6, column: 34 }] }],
    },
    // #49 item 15: the boundary of the overlap test (an overlap is a shared address, first <= last; test/helpers/overlap-boundary.ts)
    ...BOUNDARY.invalid,
  ],
});
