import { policyExportNameDuplicate } from '../../../src/validate/rules/policy-export-name-duplicate';
import { ruleTester } from '../../helpers/rule-tester';
import { source } from '../../helpers/source';
import { LATEST } from '../../helpers/releases';

// the rule tester's ClusterSet is named test
const policies = (p: string, q: string) => source`
  spec:
    antrea: { version: ${LATEST} }
    leader: { clusterID: a, server: https://a:6443 }
    clusters: [{ clusterID: a }]
    policies:
      - { name: p, ${p}spec: {} }
      - { name: q, ${q}spec: {} }`;

ruleTester(policyExportNameDuplicate, {
  valid: [policies('', ''), policies('exportName: p-export, ', 'exportName: q-export, '), policies('exportName: p-for-test, ', '')],
  invalid: [
    {
      name: 'one exportName twice',
      code: policies('exportName: shared, ', 'exportName: shared, '),
      diagnostics: [{ line: 7, column: 30, related: [{ line: 6, column: 30 }] }],
    },
    {
      name: "an exportName that is another policy's default (<name>-for-<ClusterSet>)",
      code: policies('exportName: q-for-test, ', ''),
      diagnostics: [{ line: 6, column: 30, related: [{ line: 7, column: 15 }] }],
    },
  ],
});
