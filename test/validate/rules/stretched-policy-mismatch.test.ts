import { stretchedPolicyMismatch } from '../../../src/validate/rules/stretched-policy-mismatch';
import { ruleTester } from '../../helpers/rule-tester';
import { source } from '../../helpers/source';
import { LATEST } from '../../helpers/releases';

ruleTester(stretchedPolicyMismatch, {
  valid: [
    source`
      spec:
        antrea: { version: ${LATEST} }
        network: { stretchedNetworkPolicy: true }
        leader: { clusterID: l, server: https://l:6443 }
        clusters:
          - { clusterID: l, member: false }
          - { clusterID: a }
          - { clusterID: b }`,
  ],
  invalid: [
    {
      name: 'one member opts out',
      code: source`
        spec:
          antrea: { version: ${LATEST} }
          network: { stretchedNetworkPolicy: true }
          leader: { clusterID: a, server: https://a:6443 }
          clusters:
            - { clusterID: a }
            - { clusterID: b }
            - { clusterID: c, network: { stretchedNetworkPolicy: false } }`,
      diagnostics: [{ line: 8, column: 58, related: [{ line: 3, column: 38 }] }],
    },
    {
      name: 'the dedicated leader counts too: its mc-controller needs the flag',
      code: source`
        spec:
          antrea: { version: ${LATEST} }
          network: { stretchedNetworkPolicy: true }
          leader: { clusterID: l, server: https://l:6443 }
          clusters:
            - { clusterID: l, member: false, network: { stretchedNetworkPolicy: false } }
            - { clusterID: a }
            - { clusterID: b }`,
      diagnostics: [{ line: 6, column: 73, related: [{ line: 3, column: 38 }] }],
    },
  ],
});
