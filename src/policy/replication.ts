import type { ClusterSet } from '../model/clusterset';
import { effectiveClusters, isActiveMember, type EffectiveCluster } from '../model/effective';
import { builtinTierByName } from '../validate/builtin-tiers';
import { readPolicySpec, type PolicySpec } from './policy-spec';

/** A replicated policy as a member holds it: `antrea-mc-<name>` in its Tier. */
export interface HeldPolicy {
  /** the object name in the member: `antrea-mc-<name>` */
  readonly name: string;
  /** the definition's policy name */
  readonly policy: string;
  readonly tier: string;
  readonly tierPriority: number;
  readonly spec: PolicySpec;
}

/** The Baseline Tier: evaluated after Kubernetes NetworkPolicies (crdv1beta1.BaselineTierPriority). */
export const BASELINE_TIER_PRIORITY = 253;

/**
 * The Tier priority of a policy's Tier in a member: a static Tier by its object name, else a
 * custom Tier of the definition, which every member gets (src/synth/parts/tiers.ts); undefined
 * when the member has no Tier object of that name. The member's mc-controller looks the Tier up
 * by `spec.tier` as written (handleResImpUpdateForClusterNetworkPolicy in
 * acnp_resourceimport_controller.go): a legacy spelling (`SecurityOps`) names no Tier object, so
 * the policy is not imported, although antrea-controller would accept it in a local policy.
 */
export function tierPriority(definition: ClusterSet, tier: string): number | undefined {
  const builtin = builtinTierByName(tier);
  if (builtin?.name === tier) return builtin.priority;
  return definition.spec.tiers.find((t) => t.name === tier)?.priority;
}

/**
 * The replicated policies a cluster holds. The member mc-controller imports each
 * ClusterNetworkPolicy ResourceImport as `antrea-mc-<name>` only where its Tier exists
 * (multicluster/controllers/multicluster/member acnp_resourceimport_controller.go: the import is
 * skipped with an ACNPImportFailed event otherwise); a withdrawing member has left the ClusterSet
 * (its bundle keeps no ClusterSet) and a dedicated leader imports nothing: they hold none.
 */
export function heldPolicies(definition: ClusterSet, cluster: EffectiveCluster): HeldPolicy[] {
  if (!isActiveMember(cluster)) return [];
  return definition.spec.policies.flatMap((p) => {
    const spec = readPolicySpec(p.spec);
    // looked up by the Tier the spec names, "" when none, which no Tier has (policy-tier-unknown)
    const priority = tierPriority(definition, spec.tier);
    return priority === undefined ? [] : [{ name: `antrea-mc-${p.name}`, policy: p.name, tier: spec.tier, tierPriority: priority, spec }];
  });
}

/** Every cluster of the definition with the policies it holds, by cluster ID. */
export function policiesByCluster(definition: ClusterSet): Map<string, { cluster: EffectiveCluster; policies: HeldPolicy[] }> {
  return new Map(effectiveClusters(definition).map((c) => [c.clusterID, { cluster: c, policies: heldPolicies(definition, c) }]));
}
