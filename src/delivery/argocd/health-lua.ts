import { CLUSTER_SET_GATE, CLUSTER_SET_HEALTH, EXPECTED_MEMBERS_ANNOTATION } from '../../health/cluster-set-health';
import type { HealthRule } from '../../health/health-rule';
import { RESOURCE_EXPORT_HEALTH } from '../../health/resource-export-health';
import { SERVICE_EXPORT_HEALTH, SERVICE_EXPORT_WAITING_REASONS } from '../../health/service-export-health';

/**
 * The health rules of src/health/ in Argo CD's language: each a Lua script that reads the global
 * `obj` and returns `{ status = ..., message = ... }` (health-rule.ts says how Argo CD runs it); the
 * doc comment of each rule says what it decides and from which upstream code.
 */

// ClusterSet (cluster-set-health.ts); `gate`: the leader's delivery gate, CLUSTER_SET_GATE
const lua = (gate: boolean): string => `local gate = ${String(gate)}
local hs = { status = "Progressing", message = "Waiting for the multi-cluster controller to report this ClusterSet" }
local function condition(list, kind)
  if list == nil then return nil end
  for _, c in ipairs(list) do
    if c.type == kind then return c end
  end
  return nil
end
local function says(c, status)
  return c ~= nil and c.status == status
end
local st = obj.status
if st == nil or st.conditions == nil then return hs end
if st.observedGeneration ~= nil and obj.metadata.generation ~= nil and st.observedGeneration ~= obj.metadata.generation then
  hs.message = "Waiting for the multi-cluster controller to observe generation " .. obj.metadata.generation
  return hs
end
local member = false
if obj.spec ~= nil and obj.spec.leaders ~= nil then
  for _, l in ipairs(obj.spec.leaders) do
    if l.server ~= nil then member = true end
  end
end
local entries = st.clusterStatuses or {}
if member then
  local leader = entries[1]
  local leaderID = "the leader"
  if leader ~= nil and leader.clusterID ~= nil then leaderID = "leader " .. leader.clusterID end
  local ready = nil
  local isLeader = nil
  if leader ~= nil then
    ready = condition(leader.conditions, "Ready")
    isLeader = condition(leader.conditions, "IsLeader")
  end
  if says(condition(st.conditions, "Ready"), "True") and says(ready, "True") then
    hs.status = "Healthy"
    hs.message = "Connected to " .. leaderID
  elseif says(ready, "False") then
    hs.status = "Degraded"
    hs.message = "Disconnected from " .. leaderID
    if ready.message ~= nil then hs.message = hs.message .. ": " .. ready.message end
  elseif says(ready, "True") and not says(isLeader, "True") then
    hs.message = "Connected to " .. leaderID .. ", waiting for it to confirm that it leads this ClusterSet"
  else
    hs.message = "Not connected to " .. leaderID .. " yet (its token Secret, its address, or the leader itself)"
  end
  return hs
end
local expected = 0
if obj.metadata.annotations ~= nil then
  expected = tonumber(obj.metadata.annotations["${EXPECTED_MEMBERS_ANNOTATION}"]) or 0
end
local connected = 0
local down = nil
for _, e in ipairs(entries) do
  local ready = condition(e.conditions, "Ready")
  if says(ready, "True") then connected = connected + 1 end
  if says(ready, "False") then
    local id = e.clusterID or "?"
    if down == nil then down = id else down = down .. ", " .. id end
  end
end
hs.message = connected .. " of " .. expected .. " members connected"
if down ~= nil then hs.message = hs.message .. "; disconnected: " .. down end
if gate then
  hs.status = "Healthy"
elseif down ~= nil then
  hs.status = "Degraded"
elseif connected >= expected then
  hs.status = "Healthy"
end
return hs
`;

// ResourceExport (resource-export-health.ts)
const RESOURCE_EXPORT = `local hs = { status = "Progressing", message = "Waiting for the leader's multi-cluster controller to converge this export" }
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

// ServiceExport (service-export-health.ts)
const SERVICE_EXPORT = `local hs = { status = "Progressing", message = "Not exported yet: waiting for this member to connect to its leader" }
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

const SCRIPTS = new Map<HealthRule, string>([
  [CLUSTER_SET_HEALTH, lua(false)],
  [CLUSTER_SET_GATE, lua(true)],
  [RESOURCE_EXPORT_HEALTH, RESOURCE_EXPORT],
  [SERVICE_EXPORT_HEALTH, SERVICE_EXPORT],
]);

/** A rule's Lua script; every rule of src/health/ has one (test/health/health-rules.test.ts runs each). */
export function luaOf(rule: HealthRule): string {
  const script = SCRIPTS.get(rule);
  if (script === undefined) throw new Error(`no Lua health script for ${rule.apiVersion} ${rule.kind}`);
  return script;
}
