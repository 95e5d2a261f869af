import { exportNameLength } from '../../../src/validate/rules/export-name-length';
import { ruleTester } from '../../helpers/rule-tester';
import { source } from '../../helpers/source';
import { LATEST } from '../../helpers/releases';

// names are already past other limits here: this rule guards the combined name on its own
const ID = `c${'x'.repeat(99)}`;
const NS = 'n'.repeat(100);
const NAME = 's'.repeat(50);

ruleTester(exportNameLength, {
  valid: [
    {
      name: 'a long name exported only from a short cluster ID',
      code: source`
        spec:
          antrea: { version: ${LATEST} }
          leader: { clusterID: a, server: https://a:6443 }
          clusters: [{ clusterID: a }, { clusterID: ${ID} }]
          services:
            - { name: ${NAME}, namespace: ${NS}, exportFrom: [a] }`,
    },
  ],
  invalid: [
    {
      name: '"*" includes the cluster with the long ID',
      code: source`
        spec:
          antrea: { version: ${LATEST} }
          leader: { clusterID: a, server: https://a:6443 }
          clusters:
            - { clusterID: a }
            - { clusterID: ${ID} }
          services:
            - name: ${NAME}
              namespace: ${NS}
              exportFrom: "*"`,
      diagnostics: [{ line: 8, column: 13, related: [{ line: 6, column: 20 }] }],
    },
  ],
});
