import { policyName } from '../../../src/validate/rules/policy-name';
import { ruleTester } from '../../helpers/rule-tester';
import { source } from '../../helpers/source';
import { LATEST } from '../../helpers/releases';

ruleTester(policyName, {
  valid: [
    source`
      spec:
        antrea: { version: ${LATEST} }
        leader: { clusterID: a, server: https://a:6443 }
        clusters: [{ clusterID: a }]
        policies:
          - { name: isolate.v1, spec: { priority: 1 } }
          - { name: ${'a'.repeat(63)}, spec: { priority: 2 } }`,
  ],
  invalid: [
    {
      // found by the property test: antrea-mc--a is a valid name, the ResourceExport -a-for-<clusterset> is not
      name: 'a leading "-" or "."',
      code: source`
        spec:
          antrea: { version: ${LATEST} }
          leader: { clusterID: a, server: https://a:6443 }
          clusters: [{ clusterID: a }]
          policies:
            - { name: -a, spec: { priority: 1 } }
            - { name: .b, spec: { priority: 2 } }`,
      diagnostics: [
        { line: 6, column: 15 },
        { line: 7, column: 15 },
      ],
    },
    {
      name: 'a repeated name',
      code: source`
        spec:
          antrea: { version: ${LATEST} }
          leader: { clusterID: a, server: https://a:6443 }
          clusters: [{ clusterID: a }]
          policies:
            - { name: isolate, spec: { priority: 1 } }
            - { name: isolate, spec: { priority: 2 } }`,
      diagnostics: [{ line: 7, column: 15, related: [{ line: 6, column: 15 }] }],
    },
    {
      name: 'upper case, a trailing dot, and a name past the label length',
      code: source`
        spec:
          antrea: { version: ${LATEST} }
          leader: { clusterID: a, server: https://a:6443 }
          clusters: [{ clusterID: a }]
          policies:
            - { name: Isolate, spec: { priority: 1 } }
            - { name: isolate., spec: { priority: 2 } }
            - { name: ${'a'.repeat(64)}, spec: { priority: 3 } }`,
      diagnostics: [
        { line: 6, column: 15 },
        { line: 7, column: 15 },
        { line: 8, column: 15 },
      ],
    },
  ],
});
