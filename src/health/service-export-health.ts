import type { HealthRule } from './health-rule';

/**
 * Reasons of a `Valid=False` ServiceExport that can clear without a change to the export: the
 * Service is created later (by the application's own delivery) or its Pods become ready.
 * Every other reason (`ServiceTypeNotSupported`, `ServiceNoClusterIP`, `ImportedService`, and any
 * newer one) needs someone to change the Service or the definition: Degraded.
 */
export const SERVICE_EXPORT_WAITING_REASONS = ['ServiceNotFound', 'ServiceWithoutEndpoints'] as const;

/**
 * ServiceExport (`multicluster.x-k8s.io/v1alpha1`, the MCS API), on members. Antrea's member
 * controller writes one condition, `Valid` (`member/serviceexport_controller.go`
 * `updateSvcExportStatus`): `True`/`Succeed` once the Service and its Endpoints are exported to
 * the leader; `False` with reason `ServiceNotFound`, `ServiceTypeNotSupported`
 * (ExternalName), `ServiceNoClusterIP`, `ServiceWithoutEndpoints` or `ImportedService` (an
 * `antrea-mc-` Service). It rewrites the condition only when the reason changes. While the member
 * is not connected to its leader the controller skips every ServiceExport (`Reconcile`,
 * `checkRemoteCommonArea`), so no status means "not exported yet". Other controllers' condition
 * types (newer MCS API versions add `Conflict`) are ignored.
 */
export const SERVICE_EXPORT_HEALTH: HealthRule = { apiVersion: 'multicluster.x-k8s.io/v1alpha1', kind: 'ServiceExport' };
