import { stretchedPolicyEncap } from '../../../src/validate/rules/stretched-policy-encap';
import { ruleTester } from '../../helpers/rule-tester';
import { source } from '../../helpers/source';
import { LATEST } from '../../helpers/releases';

ruleTester(stretchedPolicyEncap, {
  valid: [
    {
      name: 'stretched policy in encap',
      code: source`
        spec:
          antrea: { version: ${LATEST} }
          network: { stretchedNetworkPolicy: true, trafficEncapMode: encap }
          leader: { clusterID: a, server: https://a:6443 }
          clusters: [{ clusterID: a }, { clusterID: b }]`,
    },
    {
      name: 'noEncap without stretched policy',
      code: source`
        spec:
          antrea: { version: ${LATEST} }
          network: { trafficEncapMode: noEncap }
          leader: { clusterID: a, server: https://a:6443 }
          clusters: [{ clusterID: a }, { clusterID: b }]`,
    },
  ],
  invalid: [
    {
      name: 'the whole set is in networkPolicyOnly: one report',
      code: source`
        spec:
          antrea: { version: ${LATEST} }
          network:
            trafficEncapMode: networkPolicyOnly
            stretchedNetworkPolicy: true
          leader: { clusterID: a, server: https://a:6443 }
          clusters: [{ clusterID: a }, { clusterID: b }]`,
      diagnostics: [{ line: 4, column: 23, related: [{ line: 5, column: 29 }] }],
    },
    {
      name: 'one member overrides the mode',
      code: source`
        spec:
          antrea: { version: ${LATEST} }
          network: { stretchedNetworkPolicy: true }
          leader: { clusterID: a, server: https://a:6443 }
          clusters:
            - { clusterID: a }
            - { clusterID: b, network: { trafficEncapMode: hybrid } }`,
      diagnostics: [{ line: 7, column: 52, related: [{ line: 3, column: 38 }] }],
    },
  ],
});
