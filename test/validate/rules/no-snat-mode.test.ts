import { noSnatMode } from '../../../src/validate/rules/no-snat-mode';
import { ruleTester } from '../../helpers/rule-tester';
import { source } from '../../helpers/source';
import { LATEST } from '../../helpers/releases';

ruleTester(noSnatMode, {
  valid: [
    {
      name: 'noSNAT in noEncap',
      code: source`
        spec:
          antrea: { agentConfig: { noSNAT: true }, version: ${LATEST} }
          network: { trafficEncapMode: noEncap }
          leader: { clusterID: a, server: https://a:6443 }
          clusters: [{ clusterID: a }, { clusterID: b }]`,
    },
    {
      name: 'networkPolicyOnly turns noSNAT on anyway and accepts it',
      code: source`
        spec:
          antrea: { agentConfig: { noSNAT: true }, version: ${LATEST} }
          network: { trafficEncapMode: networkPolicyOnly }
          leader: { clusterID: a, server: https://a:6443 }
          clusters: [{ clusterID: a }, { clusterID: b }]`,
    },
    {
      name: 'noSNAT false in encap',
      code: source`
        spec:
          antrea: { agentConfig: { noSNAT: false }, version: ${LATEST} }
          leader: { clusterID: a, server: https://a:6443 }
          clusters: [{ clusterID: a }, { clusterID: b }]`,
    },
  ],
  invalid: [
    {
      name: 'noSNAT with the default encap mode',
      code: source`
        spec:
          antrea:
            version: ${LATEST}
            agentConfig:
              noSNAT: true
          leader: { clusterID: a, server: https://a:6443 }
          clusters: [{ clusterID: a }, { clusterID: b }]`,
      diagnostics: [{ line: 5, column: 15, related: [{ line: 2, column: 3 }] }],
    },
    {
      name: 'one member in hybrid',
      code: source`
        spec:
          antrea:
            version: ${LATEST}
            agentConfig:
              noSNAT: true
          network: { trafficEncapMode: noEncap }
          leader: { clusterID: a, server: https://a:6443 }
          clusters:
            - { clusterID: a }
            - { clusterID: b, network: { trafficEncapMode: hybrid } }`,
      diagnostics: [{ line: 5, column: 15, related: [{ line: 10, column: 52 }] }],
    },
  ],
});
