import { exportSystemNamespace } from '../../../src/validate/rules/export-system-namespace';
import { ruleTester } from '../../helpers/rule-tester';
import { source } from '../../helpers/source';
import { LATEST } from '../../helpers/releases';

ruleTester(exportSystemNamespace, {
  valid: [
    source`
      spec:
        antrea: { version: ${LATEST} }
        leader: { clusterID: a, server: https://a:6443 }
        clusters: [{ clusterID: a }]
        services:
          - { name: web, namespace: shop, exportFrom: "*" }`,
  ],
  invalid: [
    {
      code: source`
        spec:
          antrea: { version: ${LATEST} }
          leader: { clusterID: a, server: https://a:6443 }
          clusters: [{ clusterID: a }]
          services:
            - { name: coredns, namespace: kube-system, exportFrom: "*" }
            - name: web
              namespace: default
              exportFrom: "*"`,
      diagnostics: [
        { line: 6, column: 35 },
        { line: 8, column: 18 },
      ],
    },
  ],
});
