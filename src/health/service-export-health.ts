import { celCondition, celString, type HealthRule } from './health-rule';

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
const LUA = `local hs = { status = "Progressing", message = "Not exported yet: waiting for this member to connect to its leader" }
if obj.status == nil or obj.status.conditions == nil then return hs end
local waiting = { ${SERVICE_EXPORT_WAITING_REASONS.map((r) => `${r} = true`).join(', ')} }
for _, c in ipairs(obj.status.conditions) do
  if c.type == "Valid" then
    if c.status == "True" then
      hs.status = "Healthy"
      hs.message = "Exported to the ClusterSet"
    elseif c.status == "False" then
      if c.reason == nil or not waiting[c.reason] then hs.status = "Degraded" end
      hs.message = "Not exported"
      if c.reason ~= nil then hs.message = hs.message .. " (" .. c.reason .. ")" end
      if c.message ~= nil then hs.message = hs.message .. ": " .. c.message end
    end
  end
end
return hs
`;

const WAITING = `[${SERVICE_EXPORT_WAITING_REASONS.map(celString).join(', ')}]`;

export const SERVICE_EXPORT_HEALTH: HealthRule = {
  apiVersion: 'multicluster.x-k8s.io/v1alpha1',
  kind: 'ServiceExport',
  lua: LUA,
  cel: {
    failed: `has(status.conditions) && status.conditions.exists(c, has(c.type) && c.type == 'Valid' && has(c.status) && c.status == 'False' && !(has(c.reason) && c.reason in ${WAITING}))`,
    current: celCondition('status.conditions', 'Valid', 'True'),
  },
};
