import { podServiceCidrOverlap } from '../../../src/validate/rules/pod-service-cidr-overlap';
import { ruleTester } from '../../helpers/rule-tester';
import { source } from '../../helpers/source';
import { LATEST } from '../../helpers/releases';

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
    // #49 item 15: adjacent ranges share no address
    {
      name: 'adjacent: a /30 and the /32 of the next address',
      code: source`
        spec:
          antrea: { version: ${LATEST} }
          leader: { clusterID: a, server: https://a:6443 }
          clusters:
            - clusterID: a
              podCIDRs: [10.96.0.4/30]
            - clusterID: b
              serviceCIDR: 10.96.0.8/32`,
    },
    {
      name: 'adjacent: two /32s one apart',
      code: source`
        spec:
          antrea: { version: ${LATEST} }
          leader: { clusterID: a, server: https://a:6443 }
          clusters:
            - clusterID: a
              podCIDRs: [10.96.0.7/32]
            - clusterID: b
              serviceCIDR: 10.96.0.8/32`,
    },
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
    // #49 item 15: the boundary of the overlap test (an overlap is a shared address, first <= last)
    {
      name: 'sharing exactly one address: equal /32s',
      code: source`
        spec:
          antrea: { version: ${LATEST} }
          leader: { clusterID: a, server: https://a:6443 }
          clusters:
            - clusterID: a
              podCIDRs: [10.96.0.7/32]
            - clusterID: b
              serviceCIDR: 10.96.0.7/32`,
      diagnostics: [{ line: 8, column: 20, related: [{ line: 6, column: 18 }] }],
    },
    {
      name: 'sharing exactly one address: a /30 and the /32 of its last address',
      code: source`
        spec:
          antrea: { version: ${LATEST} }
          leader: { clusterID: a, server: https://a:6443 }
          clusters:
            - clusterID: a
              podCIDRs: [10.96.0.4/30]
            - clusterID: b
              serviceCIDR: 10.96.0.7/32`,
      diagnostics: [{ line: 8, column: 20, related: [{ line: 6, column: 18 }] }],
    },
  ],
});
