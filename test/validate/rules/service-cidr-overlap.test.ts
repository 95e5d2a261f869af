import { serviceCidrOverlap } from '../../../src/validate/rules/service-cidr-overlap';
import { ruleTester } from '../../helpers/rule-tester';
import { source } from '../../helpers/source';
import { LATEST } from '../../helpers/releases';
import { overlapBoundary } from '../../helpers/overlap-boundary';

const BOUNDARY = overlapBoundary('serviceCIDR', 'serviceCIDR');
ruleTester(serviceCidrOverlap, {
  valid: [
    {
      name: 'disjoint Service CIDRs (the EKS guide)',
      code: source`
        spec:
          antrea: { version: ${LATEST} }
          leader: { clusterID: west, server: https://a:6443 }
          clusters:
            - { clusterID: west, serviceCIDR: 10.100.0.0/16 }
            - { clusterID: east, serviceCIDR: 172.20.0.0/16 }`,
    },
    {
      name: 'PodIP endpoints: Service ranges stay local',
      code: source`
        spec:
          antrea: { version: ${LATEST} }
          network: { endpointIPType: PodIP }
          leader: { clusterID: a, server: https://a:6443 }
          clusters:
            - { clusterID: a, serviceCIDR: 10.96.0.0/12 }
            - { clusterID: b, serviceCIDR: 10.96.0.0/12 }`,
    },
    {
      name: 'a dedicated leader is not a member',
      code: source`
        spec:
          antrea: { version: ${LATEST} }
          leader: { clusterID: a, server: https://a:6443 }
          clusters:
            - { clusterID: a, member: false, serviceCIDR: 10.96.0.0/12 }
            - { clusterID: b, serviceCIDR: 10.96.0.0/16 }`,
    },
    {
      name: 'values that do not parse are cidr-syntax only',
      code: source`
        spec:
          antrea: { version: ${LATEST} }
          leader: { clusterID: a, server: https://a:6443 }
          clusters:
            - { clusterID: a, serviceCIDR: 10.96.0.0/33 }
            - { clusterID: b, serviceCIDR: 10.96.0.0/16 }`,
    },
    // #49 item 15: adjacent ranges share no address (test/helpers/overlap-boundary.ts)
    ...BOUNDARY.valid,
  ],
  invalid: [
    {
      name: 'two members, the same range',
      code: source`
        spec:
          antrea: { version: ${LATEST} }
          leader: { clusterID: a, server: https://a:6443 }
          clusters:
            - clusterID: a
              serviceCIDR: 10.96.0.0/16
            - clusterID: b
              serviceCIDR: 10.96.0.0/16`,
      diagnostics: [{ line: 8, column: 20, related: [{ line: 6, column: 20 }] }],
    },
    {
      name: 'the wider range written second',
      code: source`
        spec:
          antrea: { version: ${LATEST} }
          leader: { clusterID: a, server: https://a:6443 }
          clusters:
            - { clusterID: a, serviceCIDR: 10.96.16.0/20 }
            - { clusterID: b, serviceCIDR: 10.100.0.0/16 }
            - { clusterID: c, serviceCIDR: 10.96.0.0/12 }`,
      diagnostics: [
        { line: 7, column: 36, related: [{ line: 5, column: 36 }] },
        { line: 7, column: 36, related: [{ line: 6, column: 36 }] },
      ],
    },
    {
      name: 'one cluster overrides endpointIPType to ClusterIP',
      code: source`
        spec:
          antrea: { version: ${LATEST} }
          network: { endpointIPType: PodIP }
          leader: { clusterID: a, server: https://a:6443 }
          clusters:
            - { clusterID: a, serviceCIDR: 10.96.0.0/16 }
            - { clusterID: b, serviceCIDR: 10.96.0.0/16, network: { endpointIPType: ClusterIP } }`,
      diagnostics: [{ line: 7, column: 36, related: [{ line: 6, column: 36 }] }],
    },
    // #49 item 15: the boundary of the overlap test (an overlap is a shared address, first <= last; test/helpers/overlap-boundary.ts)
    ...BOUNDARY.invalid,
  ],
});
