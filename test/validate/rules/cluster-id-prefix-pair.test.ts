import { clusterIdPrefixPair } from '../../../src/validate/rules/cluster-id-prefix-pair';
import { ruleTester } from '../../helpers/rule-tester';
import { source } from '../../helpers/source';
import { LATEST } from '../../helpers/releases';

ruleTester(clusterIdPrefixPair, {
  valid: [
    {
      name: 'a prefix without the dash is fine (east, east1)',
      code: source`
        spec:
          antrea: { version: ${LATEST} }
          leader: { clusterID: east, server: https://a:6443 }
          clusters:
            - { clusterID: east }
            - { clusterID: east1 }
            - { clusterID: west-1 }`,
    },
    {
      name: 'a dedicated leader is not a member',
      code: source`
        spec:
          antrea: { version: ${LATEST} }
          leader: { clusterID: east, server: https://a:6443 }
          clusters:
            - { clusterID: east, member: false }
            - { clusterID: east-1 }
            - { clusterID: east-2 }`,
    },
  ],
  invalid: [
    {
      name: 'east, east-1',
      code: source`
        spec:
          antrea: { version: ${LATEST} }
          leader: { clusterID: east, server: https://a:6443 }
          clusters:
            - { clusterID: east }
            - { clusterID: east-1 }`,
      diagnostics: [{ line: 6, column: 20, related: [{ line: 5, column: 20 }] }],
    },
    {
      name: 'the longer ID first: still reported at the second in the file',
      code: source`
        spec:
          antrea: { version: ${LATEST} }
          leader: { clusterID: east-1b, server: https://a:6443 }
          clusters:
            - { clusterID: east-1b }
            - { clusterID: west }
            - { clusterID: east }`,
      diagnostics: [{ line: 7, column: 20, related: [{ line: 5, column: 20 }] }],
    },
    {
      name: 'every pair of a chain (a, a-b, a-b-c)',
      code: source`
        spec:
          antrea: { version: ${LATEST} }
          leader: { clusterID: a, server: https://a:6443 }
          clusters:
            - { clusterID: a }
            - { clusterID: a-b }
            - { clusterID: a-b-c }`,
      diagnostics: [
        { line: 6, column: 20, related: [{ line: 5, column: 20 }] },
        { line: 7, column: 20, related: [{ line: 5, column: 20 }] },
        { line: 7, column: 20, related: [{ line: 6, column: 20 }] },
      ],
    },
  ],
});
