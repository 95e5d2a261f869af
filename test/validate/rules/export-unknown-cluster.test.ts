import { exportUnknownCluster } from '../../../src/validate/rules/export-unknown-cluster';
import { ruleTester } from '../../helpers/rule-tester';
import { source } from '../../helpers/source';
import { LATEST } from '../../helpers/releases';

ruleTester(exportUnknownCluster, {
  valid: [
    source`
      spec:
        antrea: { version: ${LATEST} }
        leader: { clusterID: a, server: https://a:6443 }
        clusters: [{ clusterID: a }, { clusterID: b }]
        services:
          - { name: web, namespace: shop, exportFrom: [a, b] }
          - { name: api, namespace: shop, exportFrom: "*" }`,
  ],
  invalid: [
    {
      name: 'a cluster that does not exist',
      code: source`
        spec:
          antrea: { version: ${LATEST} }
          leader: { clusterID: a, server: https://a:6443 }
          clusters: [{ clusterID: a }, { clusterID: b }]
          services:
            - name: web
              namespace: shop
              exportFrom: [a, c]`,
      diagnostics: [{ line: 8, column: 23 }],
    },
    {
      name: 'the dedicated leader is no member',
      code: source`
        spec:
          antrea: { version: ${LATEST} }
          leader: { clusterID: l, server: https://l:6443 }
          clusters:
            - { clusterID: l, member: false }
            - { clusterID: a }
          services:
            - name: web
              namespace: shop
              exportFrom:
                - l`,
      diagnostics: [{ line: 11, column: 11, related: [{ line: 5, column: 31 }] }],
    },
  ],
});
