import { celCondition, type HealthRule } from './health-rule';

/**
 * ResourceExport (`multicluster.crd.antrea.io/v1alpha1`), on the leader: the bundles export
 * ClusterNetworkPolicies through it, and members' controllers create the Service and Endpoints
 * ones. The leader's controller replaces the whole condition list on each reconcile
 * (`leader/resourceexport_controller.go` `updateResourceExportStatus`): success is
 * `Succeeded=True`; failure is `type: Failure` with `status: "False"` and reason
 * `ConvergeFailure`, so the rule keys on the type, never on the status. There is no
 * `observedGeneration`: right after a spec change the previous verdict shows until the
 * controller's next write.
 */
const LUA = `local hs = { status = "Progressing", message = "Waiting for the leader's multi-cluster controller to converge this export" }
if obj.status == nil or obj.status.conditions == nil then return hs end
for _, c in ipairs(obj.status.conditions) do
  if c.type == "Failure" then
    hs.status = "Degraded"
    hs.message = "The leader cannot turn this export into a ResourceImport"
    if c.reason ~= nil then hs.message = hs.message .. " (" .. c.reason .. ")" end
    if c.message ~= nil then hs.message = hs.message .. ": " .. c.message end
    return hs
  end
end
for _, c in ipairs(obj.status.conditions) do
  if c.type == "Succeeded" and c.status == "True" then
    hs.status = "Healthy"
    hs.message = "Converged into a ResourceImport"
  end
end
return hs
`;

export const RESOURCE_EXPORT_HEALTH: HealthRule = {
  apiVersion: 'multicluster.crd.antrea.io/v1alpha1',
  kind: 'ResourceExport',
  lua: LUA,
  cel: {
    failed: celCondition('status.conditions', 'Failure'),
    current: celCondition('status.conditions', 'Succeeded', 'True'),
  },
};
