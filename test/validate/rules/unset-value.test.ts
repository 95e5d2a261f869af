import { expect, test } from 'vitest';
import type { Diagnostic } from '../../../src/diagnostics/diagnostic';
import { loadYaml } from '../../../src/load/load-yaml';
import { unsetValue } from '../../../src/validate/rules/unset-value';
import { runRawRules } from '../../../src/validate/run-rules';
import { ruleTester } from '../../helpers/rule-tester';
import { source } from '../../helpers/source';
import { LATEST } from '../../helpers/releases';

ruleTester(unsetValue, {
  valid: [
    source`
      spec:
        antrea: { version: ${LATEST} }
        leader: { clusterID: a, server: https://a:6443 }
        clusters: [{ clusterID: a, tokenSecret: { source: manual, name: "unset" } }]`,
  ],
  invalid: [
    {
      name: 'a string value import could not know',
      code: source`
        spec:
          antrea: { version: ${LATEST} }
          leader: { clusterID: a, server: <unset> }
          clusters: [{ clusterID: a }]`,
      diagnostics: [{ line: 3, column: 35 }],
    },
    {
      name: 'in a list item',
      code: source`
        spec:
          antrea: { version: ${LATEST} }
          leader: { clusterID: a, server: https://a:6443 }
          clusters:
            - clusterID: a
            - clusterID: b
              tokenSecret: { source: manual, name: <unset> }`,
      diagnostics: [{ line: 7, column: 44 }],
    },
  ],
});

// where import puts an object or an enum, the schema fails too; the rule still names the place
test('an unset token source and delivery, which the schema also refuses', () => {
  const text = [
    'apiVersion: antrea-clusterset/v1alpha1',
    'kind: ClusterSetDefinition',
    'metadata: { name: x }',
    'spec:',
    '  clusters:',
    '    - clusterID: b',
    '      tokenSecret: { source: <unset> }',
    '  delivery: <unset>',
  ].join('\n');
  const diagnostics: Diagnostic[] = [];
  runRawRules(loadYaml('x.yaml', text, diagnostics)!, diagnostics, [unsetValue]);
  expect(diagnostics.map((d) => [d.code, d.line, d.column, d.hint?.split(' ')[0]])).toEqual([
    ['unset-value', 8, 13, 'choose'],
    ['unset-value', 7, 30, 'choose'],
  ]);
  // the data path written as every other diagnostic writes it (#49 item 12)
  expect(diagnostics.map((d) => d.message.split(' ')[0])).toEqual(['spec.delivery', 'spec.clusters[0].tokenSecret.source']);
});
