import { expect, test } from 'vitest';
import { SUPPORTED_ANTREA_VERSIONS } from '../../../src/antrea/releases';
import { SUPPORTED } from '../../helpers/releases';
import { unsupportedAntreaVersion } from '../../../src/validate/rules/unsupported-antrea-version';
import { ruleTester, runRule } from '../../helpers/rule-tester';
import { source } from '../../helpers/source';

const at = (version: string) => source`
  spec:
    antrea: { version: ${version} }
    leader: { clusterID: a, server: https://a:6443 }
    clusters: [{ clusterID: a }]`;

test('the supported releases are the registry, oldest first, each once', () => {
  expect(SUPPORTED_ANTREA_VERSIONS).toEqual(SUPPORTED.map((r) => r.version));
  expect(new Set(SUPPORTED_ANTREA_VERSIONS).size).toBe(SUPPORTED_ANTREA_VERSIONS.length);
  const order = (v: string) => v.slice(1).split('.').map(Number);
  const sorted = [...SUPPORTED_ANTREA_VERSIONS].sort((a, b) => order(a).reduce((d, n, i) => d || n - order(b)[i]!, 0));
  expect(SUPPORTED_ANTREA_VERSIONS).toEqual(sorted);
});

test('the hint lists every supported release', () => {
  const [d] = runRule(unsupportedAntreaVersion, at('v2.6.0'));
  expect(d?.hint).toContain(SUPPORTED_ANTREA_VERSIONS.join(', '));
});

ruleTester(unsupportedAntreaVersion, {
  valid: [...SUPPORTED.map((r) => ({ name: r.version, code: at(r.version) }))],
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
