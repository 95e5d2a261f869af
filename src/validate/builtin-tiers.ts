/**
 * The Tiers antrea-controller creates at start-up (pkg/controller/networkpolicy/tier.go),
 * and the limits its Tier webhook enforces (validate.go), for Antrea v2.7.
 */
export interface BuiltinTier {
  /** the Tier object name */
  readonly name: string;
  /** the legacy static spelling the policy webhook also accepts */
  readonly displayName: string;
  readonly priority: number;
}

export const BUILTIN_TIERS: readonly BuiltinTier[] = [
  { name: 'emergency', displayName: 'Emergency', priority: 50 },
  { name: 'securityops', displayName: 'SecurityOps', priority: 100 },
  { name: 'networkops', displayName: 'NetworkOps', priority: 150 },
  { name: 'platform', displayName: 'Platform', priority: 200 },
  { name: 'application', displayName: 'Application', priority: 250 },
  { name: 'baseline', displayName: 'Baseline', priority: 253 },
];

/** Held back for Antrea's own use besides the built-in priorities (251, 252, 254, 255). */
export const RESERVED_TIER_PRIORITIES: readonly number[] = [251, 252, 254, 255];

/** The webhook refuses a new Tier once this many exist, built-ins included. */
export const MAX_TIERS = 20;

export const builtinTierByName = (name: string) => BUILTIN_TIERS.find((t) => t.name === name.toLowerCase());
export const builtinTierByPriority = (priority: number) => BUILTIN_TIERS.find((t) => t.priority === priority);

/**
 * v2.7: with the controller's ClusterNetworkPolicy feature gate on, the Tier webhook refuses to
 * create a Tier at this priority, which upstream ClusterNetworkPolicies' admin rules take
 * (pkg/controller/networkpolicy/clusternetworkpolicy.go cnpAdminTierPriority; validate.go
 * tierValidator.createValidate). A Tier created there before the gate was on may stay.
 */
export const CNP_ADMIN_TIER_PRIORITY = 220;
export const CNP_FEATURE_GATE = 'ClusterNetworkPolicy';
