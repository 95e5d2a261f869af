import type { Rule } from '../rule';
import { leaderUnknown } from './leader-unknown';
import { unsupportedAntreaVersion } from './unsupported-antrea-version';
// --- identity, topology and addresses: imports ---
// --- traffic, exports, tiers, policies, secrets, delivery: imports ---
import { tunnelTypeMismatch } from './tunnel-type-mismatch';
import { tunnelPortMismatch } from './tunnel-port-mismatch';
import { endpointIPTypeMismatch } from './endpoint-ip-type-mismatch';
import { stretchedPolicyMismatch } from './stretched-policy-mismatch';
import { stretchedPolicyEncap } from './stretched-policy-encap';
import { encryptionConflict } from './encryption-conflict';
import { noSnatMode } from './no-snat-mode';
import { managedConfigKey } from './managed-config-key';
import { exportUnknownCluster } from './export-unknown-cluster';
import { exportNameFormat } from './export-name-format';
import { exportDuplicate } from './export-duplicate';
import { exportImportCollision } from './export-import-collision';
import { exportNameLength } from './export-name-length';
import { exportSystemNamespace } from './export-system-namespace';
import { tierConflict } from './tier-conflict';
import { policySchema } from './policy-schema';
import { policyTierUnknown } from './policy-tier-unknown';
import { policyClusterSetScopeDisabled } from './policy-clusterset-scope-disabled';
import { policyServiceNotExported } from './policy-service-not-exported';
import { policyName } from './policy-name';
import { inlineSecret } from './inline-secret';
import { deliveryDestinationMissing } from './delivery-destination-missing';

/** Every rule, in catalog order (docs/rules/<id>.md); ids equal the file names. */
export const allRules: readonly Rule[] = [
  unsupportedAntreaVersion,
  leaderUnknown,
  // --- identity, topology and addresses ---
  // --- traffic, exports, tiers, policies, secrets, delivery ---
  tunnelTypeMismatch,
  tunnelPortMismatch,
  endpointIPTypeMismatch,
  stretchedPolicyMismatch,
  stretchedPolicyEncap,
  encryptionConflict,
  noSnatMode,
  managedConfigKey,
  exportUnknownCluster,
  exportNameFormat,
  exportDuplicate,
  exportImportCollision,
  exportNameLength,
  exportSystemNamespace,
  tierConflict,
  policySchema,
  policyTierUnknown,
  policyClusterSetScopeDisabled,
  policyServiceNotExported,
  policyName,
  inlineSecret,
  deliveryDestinationMissing,
];
