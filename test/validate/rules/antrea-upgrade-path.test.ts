import { antreaUpgradePath } from '../../../src/validate/rules/antrea-upgrade-path';
import { ruleTester } from '../../helpers/rule-tester';
import { LATEST, SUPPORTED } from '../../helpers/releases';
import { source } from '../../helpers/source';

const at = (version: string, upgradeFrom?: string) => source`
  spec:
    antrea:
      version: ${version}
      ${upgradeFrom === undefined ? 'imageRegistry: antrea' : `upgradeFrom: ${upgradeFrom}`}
    leader: { clusterID: a, server: https://a:6443 }
    clusters: [{ clusterID: a }]`;

/** `version` moved by `minors` minor versions, at the given patch: `minorsFrom('v2.7.0', -4, 1)` is v2.3.1 */
const minorsFrom = (version: string, minors: number, patch = 0) => {
  const [major, minor] = version.slice(1).split('.').map(Number);
  return `v${major}.${minor! + minors}.${patch}`;
};
const OLDEST = SUPPORTED[0]!.version;

ruleTester(antreaUpgradePath, {
  valid: [
    { name: 'no upgrade', code: at(LATEST) },
    // each supported release to the next one
    ...SUPPORTED.slice(1).map((r, i) => ({ name: `${SUPPORTED[i]!.version} to ${r.version}`, code: at(r.version, SUPPORTED[i]!.version) })),
    { name: 'from a release the compiler does not model, within four minor versions', code: at(LATEST, minorsFrom(LATEST, -4, 1)) },
    { name: 'same version', code: at(OLDEST, OLDEST) },
    { name: 'an unsupported target is left to unsupported-antrea-version', code: at(minorsFrom(LATEST, 2), minorsFrom(LATEST, 1)) },
  ],
  invalid: [
    { name: 'a downgrade', code: at(OLDEST, LATEST), diagnostics: [{ line: 4, column: 18 }] },
    { name: 'more than four minor versions', code: at(LATEST, minorsFrom(LATEST, -5)), diagnostics: [{ line: 4, column: 18 }] },
    { name: 'across a major version', code: at(LATEST, 'v1.15.1'), diagnostics: [{ line: 4, column: 18 }] },
    { name: 'not a version', code: at(LATEST, 'latest'), diagnostics: [{ line: 4, column: 18 }] },
  ],
});
