import { exportNameFormat } from '../../../src/validate/rules/export-name-format';
import { ruleTester } from '../../helpers/rule-tester';
import { source } from '../../helpers/source';
import { LATEST } from '../../helpers/releases';

const LONG = 'a'.repeat(64);

ruleTester(exportNameFormat, {
  valid: [
    source`
      spec:
        antrea: { version: ${LATEST} }
        leader: { clusterID: a, server: https://a:6443 }
        clusters: [{ clusterID: a }]
        services:
          - { name: web-1, namespace: 0shop, exportFrom: "*" }`,
  ],
  invalid: [
    {
      name: 'upper case, underscore and dots',
      code: source`
        spec:
          antrea: { version: ${LATEST} }
          leader: { clusterID: a, server: https://a:6443 }
          clusters: [{ clusterID: a }]
          services:
            - name: Web
              namespace: shop_prod
              exportFrom: "*"
            - name: web.v1
              namespace: shop
              exportFrom: "*"`,
      diagnostics: [
        { line: 7, column: 18 },
        { line: 6, column: 13 },
        { line: 9, column: 13 },
      ],
    },
    {
      name: 'a Service name that starts with a digit (RFC 1035), where a Namespace may',
      code: source`
        spec:
          antrea: { version: ${LATEST} }
          leader: { clusterID: a, server: https://a:6443 }
          clusters: [{ clusterID: a }]
          services:
            - { name: "1", namespace: 0shop, exportFrom: "*" }
            - { name: 9abc, namespace: shop, exportFrom: "*" }`,
      diagnostics: [
        { line: 6, column: 15 },
        { line: 7, column: 15 },
      ],
    },
    {
      name: 'too long, or ending with "-"',
      code: source`
        spec:
          antrea: { version: ${LATEST} }
          leader: { clusterID: a, server: https://a:6443 }
          clusters: [{ clusterID: a }]
          services:
            - { name: web-, namespace: ${LONG}, exportFrom: "*" }`,
      diagnostics: [
        { line: 6, column: 32 },
        { line: 6, column: 15 },
      ],
    },
  ],
});
