import { tunnelPortMismatch } from '../../../src/validate/rules/tunnel-port-mismatch';
import { ruleTester } from '../../helpers/rule-tester';
import { source } from '../../helpers/source';
import { LATEST } from '../../helpers/releases';

ruleTester(tunnelPortMismatch, {
  valid: [
    {
      name: 'one port for the whole set',
      code: source`
        spec:
          antrea: { version: ${LATEST} }
          network: { tunnelPort: 7081 }
          leader: { clusterID: a, server: https://a:6443 }
          clusters:
            - { clusterID: a }
            - { clusterID: b }`,
    },
    {
      name: '0 and the standard Geneve port are the same port',
      code: source`
        spec:
          antrea: { version: ${LATEST} }
          leader: { clusterID: a, server: https://a:6443 }
          clusters:
            - { clusterID: a }
            - { clusterID: b, network: { tunnelPort: 6081 } }`,
    },
    {
      name: 'GRE has no port',
      code: source`
        spec:
          antrea: { version: ${LATEST} }
          network: { tunnelType: gre }
          leader: { clusterID: a, server: https://a:6443 }
          clusters:
            - { clusterID: a }
            - { clusterID: b, network: { tunnelPort: 9000 } }`,
    },
  ],
  invalid: [
    {
      name: 'an override uses another port',
      code: source`
        spec:
          antrea: { version: ${LATEST} }
          network:
            tunnelPort: 7081
          leader: { clusterID: a, server: https://a:6443 }
          clusters:
            - { clusterID: a }
            - { clusterID: b }
            - { clusterID: c, network: { tunnelPort: 8081 } }`,
      diagnostics: [{ line: 9, column: 46, related: [{ line: 4, column: 17 }] }],
    },
    {
      name: 'two members with ports of their own each differ from the rest',
      code: source`
        spec:
          antrea: { version: ${LATEST} }
          leader: { clusterID: a, server: https://a:6443 }
          clusters:
            - { clusterID: a, network: { tunnelPort: 7000 } }
            - { clusterID: b, network: { tunnelPort: 7001 } }
            - { clusterID: c, network: { tunnelPort: 7001 } }`,
      diagnostics: [{ line: 5, column: 46, related: [{ line: 6, column: 46 }] }],
    },
  ],
});
