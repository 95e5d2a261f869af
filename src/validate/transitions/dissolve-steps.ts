import { CLUSTERSET_RESOURCE, fluxKustomizationsOf, kubectlIn, KUSTOMIZATION_RESOURCE, removeFluxKustomizations } from '../../kube/kubectl-command';
import { shellQuote as q } from '../../shell-quote';
import type { EffectiveCluster } from '../../model/effective';
import type { RevisionView } from '../transition';

/** One step of the procedure: what to do and, when it is a command, the command as a shell reads it. */
export interface ProcedureStep {
  readonly text: string;
  readonly command?: string;
}

export interface DissolveOptions {
  /** the leader moves: each member's token must be reissued */
  readonly leaderMoves?: boolean;
  /** the clusters whose Flux Kustomizations come back under the same names (a leader move: the ClusterSet keeps its name) */
  readonly staying?: Iterable<string>;
}

/** Up to this many members, one command each; beyond, one loop per Namespace over the cluster IDs. */
export const ONE_COMMAND_EACH_UP_TO = 5;

/**
 * The supported way to change what a ClusterSet's webhook keeps immutable (its name, its
 * leader): take the ClusterSet down and create it again. Every command names its cluster
 * (`kubectl --context <clusterID>`, as the ClusterSet's README maps them).
 *
 * Members first, the dual-role leader's own member ClusterSet included: the leader's webhook
 * refuses to delete its ClusterSet while any MemberClusterAnnounce is left in its Namespace
 * (multicluster/cmd/multicluster-controller/clusterset_webhook.go, clusterSetValidator.Handle, on
 * Delete with the leader role), and a member that deletes its ClusterSet withdraws its announce
 * and exports itself (member/clusterset_controller.go, cleanUpResources). A member's own webhook
 * admits the deletion. The definition goes first, in a change of its own, so that no engine
 * delivers the ClusterSets any more while they are deleted: the engines prune nothing guarded, and
 * orphaned delivery objects apply nothing (docs/delivery.md, "What a removal does").
 */
export function dissolveProcedure(before: RevisionView, last: string, options: DissolveOptions = {}): ProcedureStep[] {
  const { name } = before.definition.metadata;
  const leaderID = before.definition.spec.leader.clusterID;
  const leaderNs = before.definition.spec.leader.namespace;
  const members = before.clusters.filter((c) => c.isMember);
  const del = (ns: string) => `-n ${q(ns)} delete ${CLUSTERSET_RESOURCE} ${q(name)}`;
  const withdraw = '(its mc-controller withdraws its MemberClusterAnnounce and exports from the leader)';
  const memberSteps: ProcedureStep[] =
    members.length <= ONE_COMMAND_EACH_UP_TO
      ? members.map((c) => ({
          text: `in ${c.clusterID}${c.isLeader ? ' (the leader, as a member)' : ''}, delete its ClusterSet ${withdraw}`,
          command: `${kubectlIn(c.clusterID)} ${del(c.cluster.namespace)}`,
        }))
      : [...new Set(members.map((c) => c.cluster.namespace))]
          .map((ns) => members.filter((c) => c.cluster.namespace === ns))
          .map((group) => ({
            text: `in the ${group.length} members whose ClusterSet is in ${group[0]!.cluster.namespace}, delete it ${withdraw}`,
            command: `for id in ${group.map((c) => q(c.clusterID)).join(' ')}; do kubectl --context "$id" ${del(group[0]!.cluster.namespace)}; done`,
          }));
  return [
    {
      text: `revert this change, then remove the definition of "${name}" in a change of its own and let the engines apply it: the clusters keep running the ClusterSet, and nothing delivers it any more (plan reports the orphaned delivery objects); only the exports units go, with their ServiceExports, so the members stop exporting until the last step brings them back`,
    },
    ...memberSteps,
    {
      text: `on the leader ${leaderID}, wait until no MemberClusterAnnounce is left (kubectl says "No resources found")`,
      command: `${kubectlIn(leaderID)} -n ${q(leaderNs)} get memberclusterannounces.multicluster.crd.antrea.io`,
    },
    {
      text: `then on the leader ${leaderID}, delete its ClusterSet (its webhook refuses while any member is still announced)`,
      command: `${kubectlIn(leaderID)} ${del(leaderNs)}`,
    },
    ...(options.leaderMoves ? newLeaderTokens(members) : []),
    ...fluxOrphans(before, new Set(options.staying ?? [])),
    { text: `${last} in a later change: the engines create the new ClusterSets, which the webhooks admit, and the members join again` },
  ];
}

export { KUSTOMIZATION_RESOURCE };

/**
 * The old ClusterSet's Flux Kustomizations (layers, verification; its exports units are not guarded
 * and went with the definition, synth/delivery/flux.ts): once the definition is
 * removed the parent orphans them (they carry `kustomize.toolkit.fluxcd.io/prune: disabled`), and
 * they stay for good, Ready=False because their path is gone. Argo CD needs no step: the
 * ApplicationSet deletes its Applications and keeps what they applied. Each is deleted with
 * `spec.prune` turned off first: kustomize-controller's finalizer deletes everything in the
 * inventory of a Kustomization deleted with `prune: true` (kustomization_controller.go, finalize),
 * Antrea's agent and controller included.
 *
 * After a rename every name is gone for good. After a leader move the ClusterSet keeps its name,
 * so the Kustomizations of the clusters in `staying` come back under the same names: the new
 * definition's take them over with their inventory, and prune what the cluster no longer holds (a
 * former leader's leader controller); deleting them first would lose that inventory. Only the
 * clusters that leave lose theirs, before the definition comes back. A hub Flux runs where
 * `$FLUX_CONTEXT` points (the definition does not name that cluster, as in
 * src/plan/member-leaves.ts); otherwise each cluster's own Flux holds its Kustomizations.
 */
function fluxOrphans(before: RevisionView, staying: ReadonlySet<string>): ProcedureStep[] {
  const flux = before.definition.spec.delivery.flux;
  if (!flux) return [];
  const { name } = before.definition.metadata;
  const leaving = before.clusters.map((c) => c.clusterID).filter((id) => !staying.has(id));
  if (leaving.length === 0) return [];
  const own = fluxKustomizationsOf(name);
  /** on the Flux of `context`, each Kustomization `selector` lists (a shell word): prune off, then delete */
  const removeAll = (context: string, selector: string) => removeFluxKustomizations(context, flux.namespace, selector);
  const text = (where: string) =>
    `${where}, delete the Flux Kustomizations of "${name}"${leaving.length < before.clusters.length ? ` for ${leaving.length === 1 ? `${leaving[0]}, which leaves` : `the ${leaving.length} clusters that leave`}` : ''} (orphaned since the definition was removed, Ready=False as their path is gone), each with prune turned off first, or Flux uninstalls Antrea; what they applied stays${leaving.length < before.clusters.length ? '' : ", and the new definition's Kustomizations take it over"}`;
  const hub = before.clusters.some((c) => c.cluster.delivery.flux?.kubeConfigSecretRef);
  const FLUX = '"$FLUX_CONTEXT"';
  const onHub = 'on the hub Flux (the cluster "$FLUX_CONTEXT" names)';
  if (hub && leaving.length === before.clusters.length) return [{ text: text(onHub), command: removeAll(FLUX, q(own)) }];
  // one cluster's: on a hub Flux, its cluster-id label tells them apart; on its own Flux, they are all its
  const selectorOf = (id: string) => (hub ? q(`${own},antrea-clusterset/cluster-id=${id}`) : q(own));
  const contextOf = (id: string) => (hub ? FLUX : q(id));
  if (leaving.length <= ONE_COMMAND_EACH_UP_TO)
    return leaving.map((id) => ({ text: text(hub ? onHub : `on ${id}'s Flux`), command: removeAll(contextOf(id), selectorOf(id)) }));
  return [
    {
      text: text(hub ? onHub : `on the Flux of each cluster`),
      command: `for id in ${leaving.map(q).join(' ')}; do ${removeAll(hub ? FLUX : '"$id"', hub ? `${q(`${own},antrea-clusterset/cluster-id=`)}"$id"` : q(own))}; done`,
    },
  ];
}

/**
 * A member's token Secret keeps its name when the leader moves, and holds the old leader's token:
 * the member would present it to the new leader, which refuses it, and the ClusterSet's README
 * copies a member token only where the Secret is missing. Found by the engine replay
 * (test/engine-replay/dissolve-procedure.test.ts): without this step no member reconnects. A
 * manual Secret is deleted once its ClusterSet is gone (the member has withdrawn), so that the
 * README's step copies the token the new leader issues; a SealedSecret or ExternalSecret in the
 * bundle is the user's to point at the new leader (those two are not replayed).
 */
function newLeaderTokens(members: readonly EffectiveCluster[]): ProcedureStep[] {
  const manual = members.filter((c) => c.cluster.tokenSecret.source === 'manual');
  const text = (where: string) =>
    `${where}, delete the token Secret (it holds the old leader's token; once the new leader's bundle has applied, copy the member's new token as the ClusterSet's README shows)`;
  const steps: ProcedureStep[] =
    manual.length <= ONE_COMMAND_EACH_UP_TO
      ? manual.map((c) => ({
          text: text(`in ${c.clusterID}`),
          command: `${kubectlIn(c.clusterID)} -n ${q(c.cluster.namespace)} delete secret ${q(c.tokenSecretName)}`,
        }))
      : [...new Set(manual.map((c) => c.cluster.namespace))]
          .map((ns) => manual.filter((c) => c.cluster.namespace === ns))
          .map((group) => ({
            text: text(`in the ${group.length} members whose token Secret is in ${group[0]!.cluster.namespace}`),
            command: `for pair in ${group.map((c) => q(`${c.clusterID}=${c.tokenSecretName}`)).join(' ')}; do kubectl --context "\${pair%%=*}" -n ${q(group[0]!.cluster.namespace)} delete secret "\${pair#*=}"; done`,
          }));
  for (const c of members.filter((m) => m.cluster.tokenSecret.source !== 'manual'))
    steps.push({
      text:
        c.cluster.tokenSecret.source === 'sealedSecret'
          ? `for ${c.clusterID}, once the new leader's bundle has applied, seal the token it issues into the SealedSecret ${c.tokenSecretName} and commit it (until then the member presents the old leader's token)`
          : `for ${c.clusterID}, point the ExternalSecret ${c.tokenSecretName} at the token the new leader issues (until then the member presents the old leader's token)`,
    });
  return steps;
}

/** The procedure as the plan prints it: one step a line, its command after a colon. */
export function dissolveSteps(before: RevisionView, last: string, options: DissolveOptions = {}): string[] {
  return dissolveProcedure(before, last, options).map((s) => (s.command ? `${s.text}: ${s.command}` : s.text));
}
