import { managedConfigKey } from '../../../src/validate/rules/managed-config-key';
import { ruleTester } from '../../helpers/rule-tester';
import { source } from '../../helpers/source';
import { LATEST } from '../../helpers/releases';

ruleTester(managedConfigKey, {
  valid: [
    source`
      spec:
        antrea:
          version: ${LATEST}
          agentConfig:
            featureGates: { Egress: true }
            trafficEncryptionMode: ipsec
          controllerConfig:
            featureGates: { AdminNetworkPolicy: true }
        leader: { clusterID: a, server: https://a:6443 }
        clusters: [{ clusterID: a }]`,
  ],
  invalid: [
    {
      name: 'tunnel and mode keys in agentConfig',
      code: source`
        spec:
          antrea:
            version: ${LATEST}
            agentConfig:
              tunnelType: vxlan
              trafficEncapMode: noEncap
              tunnelPort: 4789
          leader: { clusterID: a, server: https://a:6443 }
          clusters: [{ clusterID: a }]`,
      diagnostics: [
        { line: 5, column: 7 },
        { line: 6, column: 7 },
        { line: 7, column: 7 },
      ],
    },
    {
      name: 'the Multicluster feature gate and multicluster settings, in either config',
      code: source`
        spec:
          antrea:
            version: ${LATEST}
            agentConfig:
              featureGates: { Egress: true, Multicluster: false }
              multicluster:
                enableGateway: true
                namespace: mc
            controllerConfig:
              multicluster: {}
          leader: { clusterID: a, server: https://a:6443 }
          clusters: [{ clusterID: a }]`,
      diagnostics: [
        { line: 5, column: 37 },
        { line: 7, column: 9 },
        { line: 8, column: 9 },
        // even empty, the section is the compiler's
        { line: 10, column: 7 },
      ],
    },
  ],
});
