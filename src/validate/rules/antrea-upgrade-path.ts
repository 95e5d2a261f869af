import { upgradeSteps } from '../../antrea/upgrade';
import type { ModelRule } from '../rule';

export const antreaUpgradePath: ModelRule = {
  id: 'antrea-upgrade-path',
  severity: 'error',
  description: 'spec.antrea.upgradeFrom names a move Antrea does not support (a downgrade, too many minor versions)',
  validate({ definition, release, report }) {
    const { upgradeFrom, version } = definition.spec.antrea;
    // an unsupported target is reported by unsupported-antrea-version
    if (upgradeFrom === undefined || !release) return;
    const plan = upgradeSteps(upgradeFrom, version);
    if (!plan.refused) return;
    report({
      path: ['spec', 'antrea', 'upgradeFrom'],
      message: `cannot build an upgrade from ${upgradeFrom} to ${version}`,
      hint: plan.refused,
    });
  },
};
