import type { HealthRule } from './health-rule';

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
export const CLUSTER_SET_HEALTH: HealthRule = { apiVersion: 'multicluster.crd.antrea.io/v1alpha2', kind: 'ClusterSet' };

/**
 * The same check as the leader's own delivery gate: a member waits for the leader's bundle
 * (Argo CD's RollingSync step, a hub Flux's `dependsOn`), so the leader's health there must not
 * wait for members, or the first install would never finish; nor fail on one member, or one
 * broken member would hold back every other member's rollout. It is healthy once the leader's
 * controller has written a status; a member's ClusterSet is checked in full.
 */
export const CLUSTER_SET_GATE: HealthRule = { ...CLUSTER_SET_HEALTH };
