import { clusterIdDuplicate } from '../../../src/validate/rules/cluster-id-duplicate';
import { ruleTester } from '../../helpers/rule-tester';
import { source } from '../../helpers/source';
import { LATEST } from '../../helpers/releases';

ruleTester(clusterIdDuplicate, {
  valid: [
    source`
      spec:
        antrea: { version: ${LATEST} }
        leader: { clusterID: a, server: https://a:6443 }
        clusters:
          - { clusterID: a }
          - { clusterID: b }`,
  ],
  invalid: [
    {
      name: 'the repeat is reported, the first declaration is related',
      code: source`
        spec:
          antrea: { version: ${LATEST} }
          leader: { clusterID: a, server: https://a:6443 }
          clusters:
            - { clusterID: a }
            - { clusterID: b }
            - { clusterID: a }`,
      diagnostics: [{ line: 7, column: 20, related: [{ line: 5, column: 20 }] }],
    },
    {
      name: 'every repeat names the first declaration',
      code: source`
        spec:
          antrea: { version: ${LATEST} }
          leader: { clusterID: a, server: https://a:6443 }
          clusters:
            - clusterID: b
            - clusterID: a
            - clusterID: b
            - clusterID: b`,
      diagnostics: [
        { line: 7, column: 18, related: [{ line: 5, column: 18 }] },
        { line: 8, column: 18, related: [{ line: 5, column: 18 }] },
      ],
    },
  ],
});
