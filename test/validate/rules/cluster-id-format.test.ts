import { clusterIdFormat } from '../../../src/validate/rules/cluster-id-format';
import { ruleTester } from '../../helpers/rule-tester';
import { source } from '../../helpers/source';
import { LATEST } from '../../helpers/releases';

const longest = 'c'.repeat(63);

ruleTester(clusterIdFormat, {
  valid: [
    source`
      spec:
        antrea: { version: ${LATEST} }
        leader: { clusterID: a, server: https://a:6443 }
        clusters:
          - { clusterID: a }
          - { clusterID: test-cluster-east }
          - { clusterID: 0east-1 }
          - { clusterID: ${longest} }`,
  ],
  invalid: [
    {
      name: 'uppercase and underscore',
      code: source`
        spec:
          antrea: { version: ${LATEST} }
          leader: { clusterID: a, server: https://a:6443 }
          clusters:
            - { clusterID: a }
            - { clusterID: East_1 }`,
      diagnostics: [{ line: 6, column: 20 }],
    },
    {
      name: 'Antrea\'s unset sentinel "invalid"',
      code: source`
        spec:
          antrea: { version: ${LATEST} }
          leader: { clusterID: invalid, server: https://a:6443 }
          clusters:
            - clusterID: invalid`,
      diagnostics: [{ line: 5, column: 18 }],
    },
    {
      name: 'longer than 63 characters, ends with a dash, empty',
      code: source`
        spec:
          antrea: { version: ${LATEST} }
          leader: { clusterID: a, server: https://a:6443 }
          clusters:
            - { clusterID: ${longest}c }
            - { clusterID: east- }
            - { clusterID: "" }`,
      diagnostics: [
        { line: 5, column: 20 },
        { line: 6, column: 20 },
        { line: 7, column: 20 },
      ],
    },
    {
      name: 'the ClusterSet name',
      code: source`
        apiVersion: antrea-clusterset/v1alpha1
        kind: ClusterSetDefinition
        metadata:
          name: Demo.ClusterSet
        spec:
          antrea: { version: ${LATEST} }
          leader: { clusterID: a, server: https://a:6443 }
          clusters: [{ clusterID: a }]`,
      diagnostics: [{ line: 4, column: 9 }],
    },
  ],
});
