import { antreaUpgradePath } from '../../../src/validate/rules/antrea-upgrade-path';
import { ruleTester } from '../../helpers/rule-tester';
import { LATEST, shiftMinor, SUPPORTED } from '../../helpers/releases';
import { source } from '../../helpers/source';

const at = (version: string, upgradeFrom?: string) => source`
  spec:
    antrea:
      version: ${version}
      ${upgradeFrom === undefined ? 'imageRegistry: antrea' : `upgradeFrom: ${upgradeFrom}`}
    leader: { clusterID: a, server: https://a:6443 }
    clusters: [{ clusterID: a }]`;

const OLDEST = SUPPORTED[0]!.version;

ruleTester(antreaUpgradePath, {
  valid: [
    { name: 'no upgrade', code: at(LATEST) },
    // each supported release to the next one
    ...SUPPORTED.slice(1).map((r, i) => ({ name: `${SUPPORTED[i]!.version} to ${r.version}`, code: at(r.version, SUPPORTED[i]!.version) })),
    { name: 'from a release the compiler does not model, within four minor versions', code: at(LATEST, shiftMinor(LATEST, -4, 1)) },
    { name: 'same version', code: at(OLDEST, OLDEST) },
    { name: 'an unsupported target is left to unsupported-antrea-version', code: at(shiftMinor(LATEST, 2), shiftMinor(LATEST, 1)) },
  ],
  invalid: [
    { name: 'a downgrade', code: at(OLDEST, LATEST), diagnostics: [{ line: 4, column: 18 }] },
    { name: 'more than four minor versions', code: at(LATEST, shiftMinor(LATEST, -5)), diagnostics: [{ line: 4, column: 18 }] },
    { name: 'across a major version', code: at(LATEST, 'v1.15.1'), diagnostics: [{ line: 4, column: 18 }] },
    { name: 'not a version', code: at(LATEST, 'latest'), diagnostics: [{ line: 4, column: 18 }] },
  ],
});
