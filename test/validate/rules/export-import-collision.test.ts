import { exportImportCollision } from '../../../src/validate/rules/export-import-collision';
import { ruleTester } from '../../helpers/rule-tester';
import { source } from '../../helpers/source';
import { LATEST } from '../../helpers/releases';

ruleTester(exportImportCollision, {
  valid: [
    {
      name: 'distinct import names',
      code: source`
        spec:
          antrea: { version: ${LATEST} }
          leader: { clusterID: a, server: https://a:6443 }
          clusters: [{ clusterID: a }]
          services:
            - { name: web-api, namespace: prod, exportFrom: "*" }
            - { name: api, namespace: prod-webs, exportFrom: "*" }`,
    },
    {
      name: 'an exact repeat is export-duplicate, not a collision',
      code: source`
        spec:
          antrea: { version: ${LATEST} }
          leader: { clusterID: a, server: https://a:6443 }
          clusters: [{ clusterID: a }]
          services:
            - { name: web, namespace: prod, exportFrom: "*" }
            - { name: web, namespace: prod, exportFrom: "*" }`,
    },
  ],
  invalid: [
    {
      code: source`
        spec:
          antrea: { version: ${LATEST} }
          leader: { clusterID: a, server: https://a:6443 }
          clusters: [{ clusterID: a }]
          services:
            - name: web-api
              namespace: prod
              exportFrom: "*"
            - name: api
              namespace: prod-web
              exportFrom: "*"`,
      diagnostics: [{ line: 9, column: 13, related: [{ line: 6, column: 13 }] }],
    },
  ],
});
