import { enginesOf } from '../../delivery/registry';
import { CLUSTERSET_RESOURCE, kubectlIn } from '../../kube/kubectl-command';
import { shellQuote as q } from '../../text/shell-quote';
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
    // the engines' objects the definition's removal orphaned (ChecklistWords.orphanSteps: Flux's guarded Kustomizations)
    ...enginesOf(before.definition).flatMap((e) =>
      e.checklist
        .orphanSteps(before.definition, before.clusters, new Set(options.staying ?? []), ONE_COMMAND_EACH_UP_TO)
        .map((step) => ({ text: step.text, ...(step.commands && { command: step.commands.join(' && ') }) })),
    ),
    { text: `${last} in a later change: the engines create the new ClusterSets, which the webhooks admit, and the members join again` },
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
