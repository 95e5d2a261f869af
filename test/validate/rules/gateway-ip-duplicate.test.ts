import { gatewayIpDuplicate } from '../../../src/validate/rules/gateway-ip-duplicate';
import { ruleTester } from '../../helpers/rule-tester';
import { source } from '../../helpers/source';
import { LATEST } from '../../helpers/releases';

ruleTester(gatewayIpDuplicate, {
  valid: [
    source`
      spec:
        antrea: { version: ${LATEST} }
        leader: { clusterID: a, server: https://a:6443 }
        clusters:
          - { clusterID: a, gateways: [{ node: n1, ip: 192.168.200.101 }] }
          - { clusterID: b, gateways: [{ node: n1, ip: 192.168.200.102 }] }`,
    {
      name: 'two candidates of one cluster may share a floating IP',
      code: source`
        spec:
          antrea: { version: ${LATEST} }
          leader: { clusterID: a, server: https://a:6443 }
          clusters:
            - clusterID: a
              gateways:
                - { node: n1, ip: 192.168.200.100 }
                - { node: n2, ip: 192.168.200.100 }`,
    },
  ],
  invalid: [
    {
      name: 'two clusters, one Gateway IP',
      code: source`
        spec:
          antrea: { version: ${LATEST} }
          leader: { clusterID: a, server: https://a:6443 }
          clusters:
            - clusterID: a
              gateways: [{ node: n1, ip: 192.168.200.101 }]
            - clusterID: b
              gateways: [{ node: n1, ip: 192.168.200.101 }]`,
      diagnostics: [{ line: 8, column: 34, related: [{ line: 6, column: 34 }] }],
    },
  ],
});
