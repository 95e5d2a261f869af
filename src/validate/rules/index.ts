import type { Rule } from '../rule';
import { leaderUnknown } from './leader-unknown';
import { unsupportedAntreaVersion } from './unsupported-antrea-version';
// --- identity, topology and addresses: imports ---
// --- traffic, exports, tiers, policies, secrets, delivery: imports ---

/** Every rule, in catalog order (docs/rules/<id>.md); ids equal the file names. */
export const allRules: readonly Rule[] = [
  unsupportedAntreaVersion,
  leaderUnknown,
  // --- identity, topology and addresses ---
  // --- traffic, exports, tiers, policies, secrets, delivery ---
];
