import { CLUSTER_SET_HEALTH } from './cluster-set-health';
import type { HealthRule } from './health-rule';
import { RESOURCE_EXPORT_HEALTH } from './resource-export-health';
import { SERVICE_EXPORT_HEALTH } from './service-export-health';

/**
 * The multi-cluster kinds with a status that says whether they work, one rule each. Kinds
 * without one: Gateway (no status; the CR exists only on the active Gateway Node, created by the
 * agent), MemberClusterAnnounce (no status subresource), ClusterInfoImport (a status in the API
 * that no controller writes), Tier (no status), ResourceImport (the leader writes per-cluster
 * `Succeeded` only on update events, `leader/resourceexport_controller.go` `handleUpdateEvent`;
 * members report import failures as Events, not status) and LabelIdentity (no status). Engines
 * count a custom resource without a rule as healthy once it exists.
 */
export const HEALTH_RULES: readonly HealthRule[] = [CLUSTER_SET_HEALTH, RESOURCE_EXPORT_HEALTH, SERVICE_EXPORT_HEALTH];

export { CLUSTER_SET_GATE, CLUSTER_SET_HEALTH, EXPECTED_MEMBERS_ANNOTATION } from './cluster-set-health';
export type { HealthRule } from './health-rule';
export { RESOURCE_EXPORT_HEALTH } from './resource-export-health';
export { SERVICE_EXPORT_HEALTH, SERVICE_EXPORT_WAITING_REASONS } from './service-export-health';
