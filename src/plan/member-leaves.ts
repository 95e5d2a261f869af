import type { ClusterSet } from '../model/clusterset';
import { LABELS } from '../delivery/engine-names';
import { deliveryModes, ENGINES, inWordsOrder } from '../delivery/registry';
import { VERIFY_UNIT } from '../delivery/layer-paths';
import { effectiveClusters, type EffectiveCluster } from '../model/effective';
import { exportsService } from '../model/exports-service';
import { kubectlIn } from '../kube/kubectl-command';
import { shellQuote as q } from '../text/shell-quote';
import { code } from '../text/markdown';
import type { ChecklistItem } from './checklist';

/** An identifier in an item's text: a code span (markdown.ts `code`), as text and JSON show it too. */
const c = code;

/**
 * The one description of a member leaving, in order: the plan's "member … leaves" and "member …
 * withdraws" changes point here and the checklist carries it. Every command names its cluster as
 * the ClusterSet's README maps them (`--context <clusterID>`; `$FLUX_CONTEXT` and
 * `$ARGOCD_CONTEXT` for the clusters that run a hub Flux or Argo CD, which the definition does not
 * name).
 *
 * A clean removal has the member withdraw while its token still works: deleting its ClusterSet
 * makes its mc-controller delete its MemberClusterAnnounce on the leader and what it imported
 * (member/clusterset_controller.go, cleanUpResources), and the leader deletes the member's
 * ResourceExports when that announce goes (leader/stale_controller.go, through the announce's
 * finalizer). Once its credentials are pruned it cannot any more; a silent announce is dropped
 * only by the leader's 12-hourly clean-up after 24 h.
 *
 * The GitOps way takes two merges: `withdraw: true` first (the engine prunes the member's
 * ClusterSet, which is not guarded, and keeps its credentials on the leader), then the removal,
 * which leaves only the clean-up after the merge. A member removed at once
 * (member-removed-without-withdraw) falls back to withdrawing by hand before the merge, which
 * holds only where the delivery can be paused: a suspended Flux Kustomization stays suspended,
 * while Argo CD's ApplicationSet controller writes each Application's spec back from its template
 * (applicationset/controllers/applicationset_controller.go, createOrUpdateInCluster) and, under
 * RollingSync, starts the sync of a pending Application itself
 * (applicationset/progressivesync/progressive_sync.go, SyncDesiredApplications, syncApplication),
 * so a ClusterSet deleted by hand comes back: there the leader lets the member go after the merge.
 */
export function memberLeavingItems(before: ClusterSet, m: EffectiveCluster, remainingMembers: readonly string[]): ChecklistItem[] {
  const cs = before.metadata.name;
  const id = m.clusterID;
  const ns = m.cluster.namespace;
  const leader = before.spec.leader;
  const engines = deliveryModes(before, effectiveClusters(before)).map((mode) => ENGINES[mode.engine]);
  // an engine that re-applies a ClusterSet deleted by hand: the member cannot withdraw before the merge
  const reapplies = engines.find((e) => e.checklist.reappliesDeletedClusterSet)?.checklist.reappliesDeletedClusterSet;
  const items: ChecklistItem[] = [];
  const add = (when: ChecklistItem['when'], text: string, commands?: readonly string[]) =>
    items.push({ clusterSet: cs, when, text, ...(commands && { commands }), leaving: id });
  const announce = `${kubectlIn(leader.clusterID)} -n ${q(leader.namespace)} get memberclusterannounce ${q(`member-announce-from-${id}`)} --ignore-not-found`;
  // what the member exported, as the definition lists it (withdrawing stopped the exports, not the listing)
  const exported = before.spec.services.filter((s) => exportsService(s, id));

  // withdrawn in the base revision: its ClusterSet is gone and the leader let it go; only the clean-up is left
  if (!m.withdrawing) {
    const exports = exportsItem(id, exported, remainingMembers);
    if (exports) add('before merging', exports);
    // a suspended Flux Kustomization holds; an Argo CD Application does not (see above)
    if (reapplies)
      add(
        'before merging',
        `Better: keep ${c(id)} in this change with ${c('withdraw: true')} and remove it in a later one (member-removed-without-withdraw). ${reapplies}, so ${c(id)} cannot withdraw before this merge: let it go on the leader after the merge (below).`,
      );
    else {
      for (const e of engines) for (const step of e.checklist.pauseMember(before, m)) add('before merging', step.text, step.commands);
      add(
        'before merging',
        `In ${c(id)}, delete its ClusterSet while its token still works: its ${c('antrea-mc-controller')} withdraws its announcement from the leader, the leader deletes its exports at once, and it removes what it imported. The second command prints nothing once the leader has let it go.`,
        [`${kubectlIn(id)} -n ${q(ns)} delete clusterset ${q(cs)}`, announce],
      );
    }
    add(
      'after merging',
      `${reapplies ? `Let ${c(id)} go on the leader now: delete` : `If ${c(id)} could not withdraw before the merge, delete`} its announcement and exports on the leader: with its token revoked it cannot withdraw them itself, and the leader drops those of a silent member only after 24 to 36 hours (leader/stale_controller.go).`,
      [
        `${kubectlIn(leader.clusterID)} -n ${q(leader.namespace)} delete memberclusterannounce ${q(`member-announce-from-${id}`)} --ignore-not-found`,
        `${kubectlIn(leader.clusterID)} -n ${q(leader.namespace)} delete resourceexport -l sourceClusterID=${q(id)}`,
      ],
    );
  }
  const verifyLabel = `${LABELS.unit}=${VERIFY_UNIT},${LABELS.clusterSet}=${cs}`;
  add(
    'after merging',
    `On ${c(id)}, remove what Antrea Multi-cluster left: the engines no longer deliver its bundle but delete nothing of it, so its Antrea installation stays and so do its Gateway annotation, its ${c('antrea-mc-controller')}, its verification's Job, ConfigMap and RBAC${m.withdrawing ? '' : ` and, if it could not withdraw, its ClusterSet`} (its ServiceExports went with its exports units).`,
    [
      `${kubectlIn(id)} -n ${q(ns)} delete clusterset ${q(cs)} --ignore-not-found`,
      ...m.cluster.gateways.map(
        (g) => `${kubectlIn(id)} annotate node ${q(g.node)} multicluster.antrea.io/gateway-${g.ip ? ' multicluster.antrea.io/gateway-ip-' : ''}`,
      ),
      `${kubectlIn(id)} delete validatingwebhookconfiguration,mutatingwebhookconfiguration -l role=member,served-by=antrea-mc-controller`,
      `${kubectlIn(id)} -n ${q(ns)} delete deployment/antrea-mc-controller service/antrea-mc-webhook-service configmap/antrea-mc-controller-config serviceaccount/antrea-mc-controller --ignore-not-found`,
      `${kubectlIn(id)} delete clusterrolebinding/antrea-mc-controller-rolebinding clusterrole/antrea-mc-controller-role --ignore-not-found`,
      `${kubectlIn(id)} -n ${q(ns)} delete job,configmap,serviceaccount,role,rolebinding -l ${q(verifyLabel)}`,
      `${kubectlIn(id)} delete clusterrole,clusterrolebinding -l ${q(verifyLabel)}`,
      `${kubectlIn(id)} -n ${q(ns)} delete secret ${q(m.tokenSecretName)} --ignore-not-found`,
    ],
  );
  for (const e of inWordsOrder(engines, (e) => e.key)) for (const step of e.checklist.memberGone(before, m)) add('after merging', step.text, step.commands);
  return items;
}

/**
 * A member marked `withdraw: true` (definition-changes.ts, "member … withdraws"): the change itself
 * withdraws it; what is left to a person is to know what stops being imported and to see the
 * leader let it go before removing it.
 */
export function memberWithdrawingItems(before: ClusterSet, m: EffectiveCluster, remainingMembers: readonly string[]): ChecklistItem[] {
  const cs = before.metadata.name;
  const id = m.clusterID;
  const leader = before.spec.leader;
  const items: ChecklistItem[] = [];
  const exports = exportsItem(
    id,
    before.spec.services.filter((s) => exportsService(s, id)),
    remainingMembers,
  );
  if (exports) items.push({ clusterSet: cs, when: 'before merging', text: exports, leaving: id });
  items.push({
    clusterSet: cs,
    when: 'after merging',
    text: `Once the delivery of ${c(id)} has pruned its ClusterSet, check that it withdrew: the first command prints nothing once its ClusterSet is gone, the second once the leader has let it go. Then remove ${c(id)} from the definition in a later change.`,
    commands: [
      `${kubectlIn(id)} -n ${q(m.cluster.namespace)} get clusterset ${q(cs)} --ignore-not-found`,
      `${kubectlIn(leader.clusterID)} -n ${q(leader.namespace)} get memberclusterannounce ${q(`member-announce-from-${id}`)} --ignore-not-found`,
    ],
    leaving: id,
  });
  return items;
}

/** What the other members stop importing when `id` stops exporting. */
function exportsItem(id: string, exported: readonly ClusterSet['spec']['services'][number][], remainingMembers: readonly string[]): string | undefined {
  if (exported.length === 0) return undefined;
  const alone = exported.filter((s) => !remainingMembers.some((o) => exportsService(s, o)));
  return (
    `The other members stop importing what ${c(id)} exported (${exported.map((s) => c(`${s.namespace}/${s.name}`)).join(', ')}): they lose its endpoints` +
    (alone.length > 0
      ? `, and ${alone.map((s) => c(`${s.namespace}/${s.name}`)).join(', ')}, exported by ${c(id)} alone, disappears from every member. Check that nothing there still uses it.`
      : '.')
  );
}
