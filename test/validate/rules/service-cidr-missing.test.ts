import { serviceCidrMissing } from '../../../src/validate/rules/service-cidr-missing';
import { ruleTester } from '../../helpers/rule-tester';
import { source } from '../../helpers/source';
import { LATEST } from '../../helpers/releases';

ruleTester(serviceCidrMissing, {
  valid: [
    {
      name: 'a dedicated leader needs no Service CIDR',
      code: source`
        spec:
          antrea: { version: ${LATEST} }
          leader: { clusterID: a, server: https://a:6443 }
          clusters:
            - { clusterID: a, member: false }
            - { clusterID: b, serviceCIDR: 10.96.0.0/16 }`,
    },
    {
      name: 'PodIP endpoints need no Service CIDR',
      code: source`
        spec:
          antrea: { version: ${LATEST} }
          network: { endpointIPType: PodIP }
          leader: { clusterID: a, server: https://a:6443 }
          clusters: [{ clusterID: a, podCIDRs: [10.244.0.0/16] }]`,
    },
  ],
  invalid: [
    {
      name: 'ClusterIP by default: reported at the cluster',
      code: source`
        spec:
          antrea: { version: ${LATEST} }
          leader: { clusterID: a, server: https://a:6443 }
          clusters:
            - { clusterID: a, serviceCIDR: 10.96.0.0/16 }
            - clusterID: b
              gateways: [{ node: n1 }]`,
      diagnostics: [{ line: 6, column: 7 }],
    },
    {
      name: 'a per-cluster override to ClusterIP: reported at the override',
      code: source`
        spec:
          antrea: { version: ${LATEST} }
          network: { endpointIPType: PodIP }
          leader: { clusterID: a, server: https://a:6443 }
          clusters:
            - { clusterID: a }
            - clusterID: b
              network: { endpointIPType: ClusterIP }`,
      diagnostics: [{ line: 8, column: 34 }],
    },
  ],
});
