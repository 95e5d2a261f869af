import { celCondition, celString, type HealthRule } from './health-rule';

/**
 * How many members the leader's ClusterSet expects to hear from. The leader's controller reports
 * only the members that announced themselves (`leader/memberclusterannounce_controller.go`
 * `GetMemberClusterStatuses`) and its `Ready` is `True` when every announced member is ready, so a
 * leader that no member has reached yet reads `Ready=True` (`leader/clusterset_controller.go`
 * `updateStatus`: 0 ready of 0). The bundle writes the count the definition expects here, so the
 * rule can tell "no member yet" from "all members connected".
 */
export const EXPECTED_MEMBERS_ANNOTATION = 'antrea-clusterset/expected-members';

/**
 * ClusterSet (`multicluster.crd.antrea.io/v1alpha2`), leader and member side, from Antrea
 * v2.5.3–v2.7.0 (the status code is the same in the three releases):
 *
 * - A member's ClusterSet has `spec.leaders[].server`; a leader's has none.
 * - Member (`member/clusterset_controller.go` `updateStatus`, every 30 s): one `clusterStatuses`
 *   entry, for the leader, with `Ready` and `IsLeader` (`commonarea/remote_common_area.go`). The
 *   entry's `Ready` starts `Unknown` ("Leader cluster added") and stays so until the first
 *   MemberClusterAnnounce write succeeds; it becomes `False`/`Disconnected` only after it was
 *   connected once (`updateRemoteCommonAreaStatus` ignores a failure while never connected). The
 *   overall `Ready` is `True` when the leader entry is `Ready` and `IsLeader`; it is `False`
 *   "Disconnected from leader" whenever the entry is not `Ready`, including a new member's first
 *   write. So a not-yet-connected member (overall `False`, entry `Unknown`) is Progressing, and
 *   only an entry `Ready=False` (a lost connection) is Degraded. A member that never connects
 *   looks like one that has not yet: the engine's timeout decides.
 * - Leader (`leader/clusterset_controller.go` `updateStatus`): one entry per announced member
 *   with a single `Ready` condition, `True`/`Connected` or `False`/`Disconnected` after 3 × 10 s
 *   without an announcement (`memberclusterannounce_controller.go` `processMCSStatus`). A
 *   disconnected member is Degraded; fewer connected members than the expected count
 *   (`EXPECTED_MEMBERS_ANNOTATION`) is Progressing.
 * - The overall condition is replaced only when its status changes, so its reason and message
 *   can be stale: the rules read the per-cluster entries, and messages come from them.
 * - `observedGeneration` is rewritten on every 30 s write: it proves a write, not a reconcile.
 *   Flux reads a difference from `metadata.generation` as InProgress before any expression; the
 *   Lua does the same, so both engines wait up to 30 s after a spec change.
 * - `totalClusters` and `readyClusters` are omitted when 0: the rules count entries instead.
 * - `ClusterConnected` is declared in the API but never written: no rule reads it.
 */
const lua = (gate: boolean): string => `local gate = ${gate}
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

const MEMBER = 'spec.leaders.exists(l, has(l.server))';
const ENTRIES = '(has(status.clusterStatuses) ? status.clusterStatuses : [])';
const EXPECTED = `(has(metadata.annotations) && ${celString(EXPECTED_MEMBERS_ANNOTATION)} in metadata.annotations ? int(metadata.annotations[${celString(EXPECTED_MEMBERS_ANNOTATION)}]) : 0)`;
const ENTRY_READY = celCondition('s.conditions', 'Ready', 'True');
const ENTRY_DOWN = celCondition('s.conditions', 'Ready', 'False');
const OBSERVED = 'has(status.conditions)';

export const CLUSTER_SET_HEALTH: HealthRule = {
  apiVersion: 'multicluster.crd.antrea.io/v1alpha2',
  kind: 'ClusterSet',
  lua: lua(false),
  cel: {
    // a lost connection, on either side: the member's leader entry, or a member on the leader
    failed: `${OBSERVED} && ${ENTRIES}.exists(s, ${ENTRY_DOWN})`,
    current: `${OBSERVED} && (${MEMBER} ? ${celCondition('status.conditions', 'Ready', 'True')} && ${ENTRIES}.exists(s, ${ENTRY_READY}) : ${ENTRIES}.filter(s, ${ENTRY_READY}).size() >= ${EXPECTED})`,
  },
};

/**
 * The same check as the leader's own delivery gate: a member waits for the leader's bundle
 * (Argo CD's RollingSync step, a hub Flux's `dependsOn`), so the leader's health there must not
 * wait for members, or the first install would never finish; nor fail on one member, or one
 * broken member would hold back every other member's rollout. It is healthy once the leader's
 * controller has written a status; a member's ClusterSet is checked in full.
 */
export const CLUSTER_SET_GATE: HealthRule = {
  ...CLUSTER_SET_HEALTH,
  lua: lua(true),
  cel: {
    failed: `${OBSERVED} && ${MEMBER} && ${ENTRIES}.exists(s, ${ENTRY_DOWN})`,
    current: `${OBSERVED} && (!(${MEMBER}) || ${celCondition('status.conditions', 'Ready', 'True')} && ${ENTRIES}.exists(s, ${ENTRY_READY}))`,
  },
};
