import { expect, test } from 'vitest';
import { SUPPORTED_ANTREA_VERSIONS } from '../../../src/antrea/releases';
import { unsupportedAntreaVersion } from '../../../src/validate/rules/unsupported-antrea-version';
import { ruleTester, runRule } from '../../helpers/rule-tester';
import { source } from '../../helpers/source';

const at = (version: string) => source`
  spec:
    antrea: { version: ${version} }
    leader: { clusterID: a, server: https://a:6443 }
    clusters: [{ clusterID: a }]`;

test('the supported releases', () => {
  expect(SUPPORTED_ANTREA_VERSIONS).toEqual(['v2.5.3', 'v2.6.3', 'v2.7.0']);
});

test('the hint lists every supported release', () => {
  const [d] = runRule(unsupportedAntreaVersion, at('v2.6.0'));
  expect(d?.hint).toContain(SUPPORTED_ANTREA_VERSIONS.join(', '));
});

ruleTester(unsupportedAntreaVersion, {
  valid: [
    { name: 'v2.5.3', code: at('v2.5.3') },
    { name: 'v2.6.3', code: at('v2.6.3') },
    { name: 'v2.7.0', code: at('v2.7.0') },
  ],
  invalid: [
    { name: 'a patch release not modelled', code: at('v2.6.2'), diagnostics: [{ line: 2, column: 22 }] },
    {
      code: source`
        spec:
          antrea:
            version: v2.6.0
          leader: { clusterID: a, server: https://a:6443 }
          clusters: [{ clusterID: a }]`,
      diagnostics: [{ line: 3, column: 14 }],
    },
  ],
});
