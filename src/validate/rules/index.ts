import type { Rule } from '../rule';
import { leaderUnknown } from './leader-unknown';
import { unsupportedAntreaVersion } from './unsupported-antrea-version';

/** Every rule, in catalog order (docs/rules/<id>.md); ids equal the file names. */
export const allRules: readonly Rule[] = [unsupportedAntreaVersion, leaderUnknown];
