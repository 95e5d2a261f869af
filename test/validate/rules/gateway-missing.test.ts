import { gatewayMissing } from '../../../src/validate/rules/gateway-missing';
import { ruleTester } from '../../helpers/rule-tester';
import { source } from '../../helpers/source';
import { LATEST } from '../../helpers/releases';

ruleTester(gatewayMissing, {
  valid: [
    {
      name: 'a dedicated leader needs no Gateway',
      code: source`
        spec:
          antrea: { version: ${LATEST} }
          leader: { clusterID: a, server: https://a:6443 }
          clusters:
            - { clusterID: a, member: false }
            - { clusterID: b, gateways: [{ node: b-node1 }] }`,
    },
  ],
  invalid: [
    {
      name: 'no gateways key',
      code: source`
        spec:
          antrea: { version: ${LATEST} }
          leader: { clusterID: a, server: https://a:6443 }
          clusters:
            - { clusterID: a, gateways: [{ node: a-node1 }] }
            - clusterID: b`,
      diagnostics: [{ line: 6, column: 7 }],
    },
    {
      name: 'an empty list',
      code: source`
        spec:
          antrea: { version: ${LATEST} }
          leader: { clusterID: a, server: https://a:6443 }
          clusters:
            - clusterID: a
              gateways: []`,
      diagnostics: [{ line: 6, column: 17 }],
    },
  ],
});
