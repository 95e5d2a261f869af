import { exportDuplicate } from '../../../src/validate/rules/export-duplicate';
import { ruleTester } from '../../helpers/rule-tester';
import { source } from '../../helpers/source';
import { LATEST } from '../../helpers/releases';

ruleTester(exportDuplicate, {
  valid: [
    source`
      spec:
        antrea: { version: ${LATEST} }
        leader: { clusterID: a, server: https://a:6443 }
        clusters: [{ clusterID: a }, { clusterID: b }]
        services:
          - { name: web, namespace: shop, exportFrom: [a] }
          - { name: web, namespace: blog, exportFrom: [a] }`,
  ],
  invalid: [
    {
      code: source`
        spec:
          antrea: { version: ${LATEST} }
          leader: { clusterID: a, server: https://a:6443 }
          clusters: [{ clusterID: a }, { clusterID: b }]
          services:
            - { name: web, namespace: shop, exportFrom: [a] }
            - { name: api, namespace: shop, exportFrom: [a] }
            - { name: web, namespace: shop, exportFrom: [b] }`,
      diagnostics: [{ line: 8, column: 15, related: [{ line: 6, column: 15 }] }],
    },
  ],
});
