import { antreaUpgradePath } from '../../../src/validate/rules/antrea-upgrade-path';
import { ruleTester } from '../../helpers/rule-tester';
import { source } from '../../helpers/source';

const at = (version: string, upgradeFrom?: string) => source`
  spec:
    antrea:
      version: ${version}
      ${upgradeFrom === undefined ? 'imageRegistry: antrea' : `upgradeFrom: ${upgradeFrom}`}
    leader: { clusterID: a, server: https://a:6443 }
    clusters: [{ clusterID: a }]`;

ruleTester(antreaUpgradePath, {
  valid: [
    { name: 'no upgrade', code: at('v2.7.0') },
    { name: 'v2.5.3 to v2.7.0', code: at('v2.7.0', 'v2.5.3') },
    { name: 'v2.6.3 to v2.7.0', code: at('v2.7.0', 'v2.6.3') },
    { name: 'from a release the compiler does not model, within four minor versions', code: at('v2.7.0', 'v2.3.1') },
    { name: 'same version', code: at('v2.6.3', 'v2.6.3') },
    { name: 'an unsupported target is left to unsupported-antrea-version', code: at('v2.9.0', 'v2.8.0') },
  ],
  invalid: [
    { name: 'a downgrade', code: at('v2.6.3', 'v2.7.0'), diagnostics: [{ line: 4, column: 18 }] },
    { name: 'more than four minor versions', code: at('v2.7.0', 'v2.2.0'), diagnostics: [{ line: 4, column: 18 }] },
    { name: 'across a major version', code: at('v2.5.3', 'v1.15.1'), diagnostics: [{ line: 4, column: 18 }] },
    { name: 'not a version', code: at('v2.7.0', 'latest'), diagnostics: [{ line: 4, column: 18 }] },
  ],
});
