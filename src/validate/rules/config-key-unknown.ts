import { checkConfigKeys, CONFIG_FILE_NAMES, type ConfigFile, type KeyProblem } from '../../antrea/config-keys';
import type { AntreaRelease } from '../../antrea/release';
import { RELEASES } from '../../antrea/releases';
import { didYouMean } from '../../model/did-you-mean';
import type { ModelRule } from '../rule';

const SECTIONS: readonly [section: 'agentConfig' | 'controllerConfig', file: ConfigFile][] = [
  ['agentConfig', 'agent'],
  ['controllerConfig', 'controller'],
];

function describe(section: string, file: ConfigFile, release: AntreaRelease, p: KeyProblem): { message: string; hint: string } {
  const key = p.path.join('.');
  if (p.retired) {
    return {
      message: `${section} key "${key}" was removed in Antrea ${p.retired.removedIn}`,
      hint: p.retired.use ? `use ${p.retired.use}` : 'remove it',
    };
  }
  if (p.knownIn.length) {
    const newer = p.knownIn.filter((v) => RELEASES.findIndex((r) => r.version === v) > RELEASES.indexOf(release));
    return {
      message: `${section} key "${key}" is not in Antrea ${release.version} (it is in ${p.knownIn.join(', ')})`,
      hint: newer.length
        ? `remove it, or build for ${newer[newer.length - 1]!} (spec.antrea.version)`
        : `it was removed after ${p.knownIn[p.knownIn.length - 1]!}; remove it`,
    };
  }
  const guess = didYouMean(p.path[p.path.length - 1]!, p.siblings);
  return {
    message: `${section} key "${key}" is not an ${CONFIG_FILE_NAMES[file]} setting of Antrea ${release.version}`,
    hint: guess ? `did you mean "${[...p.path.slice(0, -1), guess].join('.')}"?` : 'Antrea silently ignores unknown keys; check the spelling or remove it',
  };
}

export const configKeyUnknown: ModelRule = {
  id: 'config-key-unknown',
  severity: 'error',
  description: 'agentConfig or controllerConfig sets a key the release does not accept',
  validate({ definition, release, report }) {
    // an unsupported version is reported by unsupported-antrea-version
    if (!release) return;
    for (const [section, file] of SECTIONS) {
      for (const problem of checkConfigKeys(definition.spec.antrea[section], file, release, RELEASES)) {
        report({ path: ['spec', 'antrea', section, ...problem.path], key: true, ...describe(section, file, release, problem) });
      }
    }
  },
};
