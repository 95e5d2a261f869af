import { podCidrOverlap } from '../../../src/validate/rules/pod-cidr-overlap';
import { ruleTester } from '../../helpers/rule-tester';
import { source } from '../../helpers/source';
import { LATEST } from '../../helpers/releases';
import { overlapBoundary } from '../../helpers/overlap-boundary';

const BOUNDARY = overlapBoundary('podCIDRs', 'podCIDRs', 'network: { podToPodConnectivity: true }');
ruleTester(podCidrOverlap, {
  valid: [
    {
      name: 'the field report as intended: disjoint Pod CIDRs with Pod-to-Pod',
      code: source`
        spec:
          antrea: { version: ${LATEST} }
          network: { podToPodConnectivity: true }
          leader: { clusterID: cl1, server: https://192.168.150.101:6443 }
          clusters:
            - { clusterID: cl1, podCIDRs: [10.244.0.0/20] }
            - { clusterID: cl2, podCIDRs: [10.244.16.0/20] }
            - { clusterID: cl3, podCIDRs: [10.244.32.0/20] }`,
    },
    {
      name: 'ClusterIP endpoints without Pod-to-Pod: Pod ranges stay local',
      code: source`
        spec:
          antrea: { version: ${LATEST} }
          leader: { clusterID: a, server: https://a:6443 }
          clusters:
            - { clusterID: a, podCIDRs: [10.244.0.0/16] }
            - { clusterID: b, podCIDRs: [10.244.0.0/16] }`,
    },
    {
      name: 'a dedicated leader is not a member',
      code: source`
        spec:
          antrea: { version: ${LATEST} }
          network: { podToPodConnectivity: true }
          leader: { clusterID: a, server: https://a:6443 }
          clusters:
            - { clusterID: a, member: false, podCIDRs: [10.244.0.0/16] }
            - { clusterID: b, podCIDRs: [10.244.0.0/16] }`,
    },
    {
      name: 'values that do not parse are cidr-syntax only',
      code: source`
        spec:
          antrea: { version: ${LATEST} }
          network: { podToPodConnectivity: true }
          leader: { clusterID: a, server: https://a:6443 }
          clusters:
            - { clusterID: a, podCIDRs: [10.244.16.0] }
            - { clusterID: b, podCIDRs: [10.244.16.0] }`,
    },
    // #49 item 15: adjacent ranges share no address (test/helpers/overlap-boundary.ts)
    ...BOUNDARY.valid,
  ],
  invalid: [
    {
      name: 'field report: cl2 and cl3 both declare 10.244.16.0/20 with podToPodConnectivity',
      code: source`
        spec:
          antrea: { version: ${LATEST} }
          network:
            podToPodConnectivity: true
          leader:
            clusterID: cl1
            server: https://192.168.150.101:6443
          clusters:
            - clusterID: cl1
              podCIDRs: [10.244.0.0/20]
              serviceCIDR: 10.96.0.0/20
            - clusterID: cl2
              podCIDRs: [10.244.16.0/20]
              serviceCIDR: 10.96.16.0/20
            - clusterID: cl3
              podCIDRs: [10.244.16.0/20]
              serviceCIDR: 10.96.32.0/20`,
      diagnostics: [{ line: 16, column: 18, related: [{ line: 13, column: 18 }] }],
    },
    {
      name: 'PodIP endpoints',
      code: source`
        spec:
          antrea: { version: ${LATEST} }
          network: { endpointIPType: PodIP }
          leader: { clusterID: a, server: https://a:6443 }
          clusters:
            - { clusterID: a, podCIDRs: [10.244.0.0/16] }
            - { clusterID: b, podCIDRs: [10.244.128.0/17] }`,
      diagnostics: [{ line: 7, column: 34, related: [{ line: 6, column: 34 }] }],
    },
    {
      name: 'a repeat within one member',
      code: source`
        spec:
          antrea: { version: ${LATEST} }
          network: { podToPodConnectivity: true }
          leader: { clusterID: a, server: https://a:6443 }
          clusters:
            - { clusterID: a, podCIDRs: [10.244.0.0/20, 10.244.0.0/20] }`,
      diagnostics: [{ line: 6, column: 49, related: [{ line: 6, column: 34 }] }],
    },
    {
      name: 'one cluster turns Pod-to-Pod on by override',
      code: source`
        spec:
          antrea: { version: ${LATEST} }
          leader: { clusterID: a, server: https://a:6443 }
          clusters:
            - { clusterID: a, podCIDRs: [10.244.0.0/16] }
            - clusterID: b
              podCIDRs: [10.244.0.0/16]
              network: { podToPodConnectivity: true }`,
      diagnostics: [{ line: 7, column: 18, related: [{ line: 5, column: 34 }] }],
    },
    // #49 item 15: the boundary of the overlap test (an overlap is a shared address, first <= last; test/helpers/overlap-boundary.ts)
    ...BOUNDARY.invalid,
  ],
});
