import { isSupportedAntreaVersion, SUPPORTED_ANTREA_VERSIONS } from '../../antrea/releases';
import type { ModelRule } from '../rule';

export const unsupportedAntreaVersion: ModelRule = {
  id: 'unsupported-antrea-version',
  severity: 'error',
  description: 'spec.antrea.version names a release the compiler does not model',
  validate({ definition, report }) {
    const version = definition.spec.antrea.version;
    if (isSupportedAntreaVersion(version)) return;
    // bundles must match the controllers they run, so an unknown release is never guessed
    report({
      path: ['spec', 'antrea', 'version'],
      message: `Antrea version "${version}" is not supported`,
      hint: isSupportedAntreaVersion(`v${version}`)
        ? `did you mean "v${version}"? Antrea releases are named with a leading v`
        : `supported versions: ${SUPPORTED_ANTREA_VERSIONS.join(', ')}`,
    });
  },
};
