import type { Rule } from '../rule';
import { leaderUnknown } from './leader-unknown';
import { unsupportedAntreaVersion } from './unsupported-antrea-version';
import { antreaUpgradePath } from './antrea-upgrade-path';
import { imageDigestVersion } from './image-digest-version';
import { kubernetesVersionUnsupported } from './kubernetes-version-unsupported';
// --- identity, topology and addresses: imports ---
import { clusterIdFormat } from './cluster-id-format';
import { clusterIdDuplicate } from './cluster-id-duplicate';
import { clusterIdPrefixPair } from './cluster-id-prefix-pair';
import { leaderServer } from './leader-server';
import { memberFlag } from './member-flag';
import { withdrawLeader } from './withdraw-leader';
import { memberCount } from './member-count';
import { namespaceConflict } from './namespace-conflict';
import { leaderCredentialsCollision } from './leader-credentials-collision';
import { cidrSyntax } from './cidr-syntax';
import { cidrHostBits } from './cidr-host-bits';
import { ipv6Unsupported } from './ipv6-unsupported';
import { serviceCidrMissing } from './service-cidr-missing';
import { podCidrMissing } from './pod-cidr-missing';
import { serviceCidrOverlap } from './service-cidr-overlap';
import { podCidrOverlap } from './pod-cidr-overlap';
import { podServiceCidrOverlap } from './pod-service-cidr-overlap';
import { gatewayIpInCidr } from './gateway-ip-in-cidr';
import { gatewayIpDuplicate } from './gateway-ip-duplicate';
import { gatewayMissing } from './gateway-missing';
import { gatewayHa } from './gateway-ha';
import { listDuplicate } from './list-duplicate';
// --- traffic, exports, tiers, policies, secrets, delivery: imports ---
import { tunnelTypeMismatch } from './tunnel-type-mismatch';
import { tunnelPortMismatch } from './tunnel-port-mismatch';
import { endpointIPTypeMismatch } from './endpoint-ip-type-mismatch';
import { stretchedPolicyMismatch } from './stretched-policy-mismatch';
import { stretchedPolicyEncap } from './stretched-policy-encap';
import { encryptionConflict } from './encryption-conflict';
import { noSnatMode } from './no-snat-mode';
import { cloudEncapMode } from './cloud-encap-mode';
import { installConfigUnused } from './install-config-unused';
import { managedConfigKey } from './managed-config-key';
import { configKeyUnknown } from './config-key-unknown';
import { exportUnknownCluster } from './export-unknown-cluster';
import { exportNameFormat } from './export-name-format';
import { objectNameFormat } from './object-name-format';
import { exportDuplicate } from './export-duplicate';
import { exportImportCollision } from './export-import-collision';
import { exportNameLength } from './export-name-length';
import { exportSystemNamespace } from './export-system-namespace';
import { tierConflict } from './tier-conflict';
import { tierPriorityCnpReserved } from './tier-priority-cnp-reserved';
import { policySchema } from './policy-schema';
import { policyTierUnknown } from './policy-tier-unknown';
import { policyClusterSetScopeDisabled } from './policy-clusterset-scope-disabled';
import { policyServiceNotExported } from './policy-service-not-exported';
import { policyName } from './policy-name';
import { policyExportNameDuplicate } from './policy-export-name-duplicate';
import { labelSyntax } from './label-syntax';
import { inlineSecret } from './inline-secret';
import { unsetValue } from './unset-value';
import { deliveryDestinationMissing } from './delivery-destination-missing';
import { deliveryDestinationShared } from './delivery-destination-shared';
import { argocdApplicationsetSize } from './argocd-applicationset-size';
import { deliveryNameCollision } from './delivery-name-collision';
import { clusterInTwoDefinitions } from './cluster-in-two-definitions';
import { deliveryNameAcrossDefinitions } from './delivery-name-across-definitions';

/** Every rule, in catalog order (docs/rules/<id>.md); ids equal the file names. */
export const allRules: readonly Rule[] = [
  unsupportedAntreaVersion,
  antreaUpgradePath,
  imageDigestVersion,
  kubernetesVersionUnsupported,
  leaderUnknown,
  // --- identity, topology and addresses ---
  clusterIdFormat,
  clusterIdDuplicate,
  clusterIdPrefixPair,
  leaderServer,
  memberFlag,
  withdrawLeader,
  memberCount,
  namespaceConflict,
  leaderCredentialsCollision,
  cidrSyntax,
  cidrHostBits,
  ipv6Unsupported,
  serviceCidrMissing,
  podCidrMissing,
  serviceCidrOverlap,
  podCidrOverlap,
  podServiceCidrOverlap,
  gatewayIpInCidr,
  gatewayIpDuplicate,
  gatewayMissing,
  gatewayHa,
  listDuplicate,
  // --- traffic, exports, tiers, policies, secrets, delivery ---
  tunnelTypeMismatch,
  tunnelPortMismatch,
  endpointIPTypeMismatch,
  stretchedPolicyMismatch,
  stretchedPolicyEncap,
  encryptionConflict,
  noSnatMode,
  cloudEncapMode,
  installConfigUnused,
  managedConfigKey,
  configKeyUnknown,
  exportUnknownCluster,
  exportNameFormat,
  objectNameFormat,
  exportDuplicate,
  exportImportCollision,
  exportNameLength,
  exportSystemNamespace,
  tierConflict,
  tierPriorityCnpReserved,
  policySchema,
  policyTierUnknown,
  policyClusterSetScopeDisabled,
  policyServiceNotExported,
  policyName,
  policyExportNameDuplicate,
  labelSyntax,
  inlineSecret,
  unsetValue,
  deliveryDestinationMissing,
  deliveryDestinationShared,
  argocdApplicationsetSize,
  deliveryNameCollision,
  clusterInTwoDefinitions,
  deliveryNameAcrossDefinitions,
];
