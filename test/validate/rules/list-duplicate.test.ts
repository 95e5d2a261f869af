import { listDuplicate } from '../../../src/validate/rules/list-duplicate';
import { ruleTester } from '../../helpers/rule-tester';
import { source } from '../../helpers/source';
import { LATEST } from '../../helpers/releases';

ruleTester(listDuplicate, {
  valid: [
    {
      name: 'two Gateway Nodes of one cluster; the same Node name in two clusters',
      code: source`
        spec:
          antrea: { version: ${LATEST} }
          leader: { clusterID: a, server: https://a:6443 }
          clusters:
            - { clusterID: a, gateways: [{ node: n1 }, { node: n2 }] }
            - { clusterID: b, gateways: [{ node: n1 }] }
          services:
            - { name: web, namespace: shop, exportFrom: [a, b] }`,
    },
  ],
  invalid: [
    {
      name: 'a Gateway Node listed twice, with the same or another IP',
      code: source`
        spec:
          antrea: { version: ${LATEST} }
          leader: { clusterID: a, server: https://a:6443 }
          clusters:
            - clusterID: a
              gateways:
                - { node: n1, ip: 100.64.0.1 }
                - { node: n2 }
                - { node: n1, ip: 100.64.0.9 }
                - { node: n1 }`,
      diagnostics: [
        { line: 9, column: 19, related: [{ line: 7, column: 19 }] },
        { line: 10, column: 19, related: [{ line: 7, column: 19 }] },
      ],
    },
    {
      name: 'a cluster listed twice in exportFrom',
      code: source`
        spec:
          antrea: { version: ${LATEST} }
          leader: { clusterID: a, server: https://a:6443 }
          clusters: [{ clusterID: a }, { clusterID: b }]
          services:
            - { name: web, namespace: shop, exportFrom: [a, b, a] }`,
      diagnostics: [{ line: 6, column: 56, related: [{ line: 6, column: 50 }] }],
    },
  ],
});
