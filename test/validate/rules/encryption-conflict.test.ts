import { encryptionConflict } from '../../../src/validate/rules/encryption-conflict';
import { ruleTester } from '../../helpers/rule-tester';
import { source } from '../../helpers/source';
import { LATEST } from '../../helpers/releases';

ruleTester(encryptionConflict, {
  valid: [
    {
      name: 'cross-cluster WireGuard without in-cluster encryption',
      code: source`
        spec:
          antrea: { agentConfig: { trafficEncryptionMode: none }, version: ${LATEST} }
          network: { encryption: wireGuard }
          leader: { clusterID: a, server: https://a:6443 }
          clusters: [{ clusterID: a }, { clusterID: b }]`,
    },
    {
      name: 'in-cluster IPsec on a dedicated leader only is not a member concern',
      code: source`
        spec:
          antrea: { agentConfig: { trafficEncryptionMode: none }, version: ${LATEST} }
          leader: { clusterID: a, server: https://a:6443 }
          clusters: [{ clusterID: a, member: false }, { clusterID: b }]`,
    },
  ],
  invalid: [
    {
      // upstream neither documents nor tests IPsec with the Gateway, and the bundles would lack its PSK plumbing
      name: 'in-cluster IPsec with the Gateway every member runs',
      code: source`
        spec:
          antrea: { agentConfig: { trafficEncryptionMode: ipsec }, version: ${LATEST} }
          leader: { clusterID: a, server: https://a:6443 }
          clusters: [{ clusterID: a }, { clusterID: b }]`,
      diagnostics: [{ line: 2, column: 51, related: [{ line: 4, column: 27 }] }],
    },
    {
      name: 'in-cluster IPsec with cross-cluster WireGuard',
      code: source`
        spec:
          antrea:
            version: ${LATEST}
            agentConfig:
              trafficEncryptionMode: ipsec
          network:
            encryption: wireGuard
          leader: { clusterID: a, server: https://a:6443 }
          clusters: [{ clusterID: a }, { clusterID: b }]`,
      diagnostics: [{ line: 5, column: 30, related: [{ line: 7, column: 17 }] }],
    },
    {
      name: 'in-cluster WireGuard with the Gateway every member runs',
      code: source`
        spec:
          antrea:
            version: ${LATEST}
            agentConfig:
              trafficEncryptionMode: wireGuard
          leader: { clusterID: a, server: https://a:6443 }
          clusters: [{ clusterID: a }, { clusterID: b }]`,
      diagnostics: [{ line: 5, column: 30, related: [{ line: 7, column: 27 }] }],
    },
    {
      name: 'in-cluster encryption outside encap (case-insensitive mode)',
      code: source`
        spec:
          antrea:
            version: ${LATEST}
            agentConfig:
              trafficEncryptionMode: IPsec
          leader: { clusterID: a, server: https://a:6443 }
          clusters:
            - { clusterID: a }
            - { clusterID: b, network: { trafficEncapMode: noEncap } }`,
      // a runs the Gateway with IPsec; b is not even in encap
      diagnostics: [
        { line: 5, column: 30, related: [{ line: 8, column: 20 }] },
        { line: 5, column: 30, related: [{ line: 9, column: 52 }] },
      ],
    },
  ],
});
