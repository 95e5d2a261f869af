import { code as c } from '../../text/markdown';
import { shellQuote as q } from '../../text/shell-quote';
import { PRUNE_OFF_PATCH } from './removal';
import type { ClusterSet } from '../../model/clusterset';
import type { ChecklistWords } from '../engine';
import { engineName } from '../engine-names';
import { LAYER_DIRECTORIES } from '../layer-paths';
import { fluxFolder, verifyKustomizationName } from './kustomizations';
import { fluxOrphanSteps } from './orphan-steps';

/**
 * Flux in the plan's checklist: a hub needs a joining member's kubeconfig Secret, one Flux per
 * cluster needs a Flux in it; nothing orders Fluxes of different clusters, so after an upgrade a
 * person reconciles the leader first.
 */
export const fluxChecklist: ChecklistWords = {
  memberJoins: (after, m, mode) => {
    const id = m.clusterID;
    const cs = after.metadata.name;
    const kubeConfig = m.cluster.delivery.flux?.kubeConfigSecretRef;
    if (kubeConfig) {
      const fluxNs = after.spec.delivery.flux!.namespace;
      return [
        {
          text: `Give the hub Flux the kubeconfig of ${c(id)}: Secret ${c(kubeConfig.name)} in ${c(fluxNs)}, key ${c(kubeConfig.key ?? 'value')}.`,
          commands: [
            `kubectl --context "$FLUX_CONTEXT" -n ${q(fluxNs)} create secret generic ${q(kubeConfig.name)} --from-file=${q(kubeConfig.key ?? 'value')}=${q(`${id}.kubeconfig`)}`,
          ],
        },
      ];
    }
    if (mode.ordersLeaderFirst) return [];
    return [
      {
        text: `Bootstrap Flux in ${c(id)} if it has none, with a source for this repository: its own Flux applies ${c(`dist/${cs}/${fluxFolder(false, id)}/`)} (after the leader, by hand: nothing orders Fluxes of different clusters).`,
      },
    ];
  },
  leaderFirst: (after, mode) => {
    if (mode.ordersLeaderFirst) return [];
    const cs = after.metadata.name;
    const leader = after.spec.leader.clusterID;
    return [
      {
        text: `One Flux per cluster: reconcile ${c(leader)} first, then the members.`,
        commands: [
          `flux --context ${q(leader)} -n ${q(after.spec.delivery.flux!.namespace)} reconcile kustomization ${q(engineName(cs, leader, LAYER_DIRECTORIES.at(-1)!))} --with-source`,
        ],
      },
    ];
  },
  orphanSteps: fluxOrphanSteps,
  pauseMember: (before, m) => [
    {
      text: `Suspend the delivery of ${c(m.clusterID)}, so that Flux does not re-create its ClusterSet while the member withdraws (or keep ${c(m.clusterID)} with ${c('withdraw: true')} in this change instead, and remove it in a later one).`,
      commands: [
        `flux --context ${fluxContext(before, m.clusterID)} -n ${q(before.spec.delivery.flux!.namespace)} suspend kustomization ${q(engineName(before.metadata.name, m.clusterID, LAYER_DIRECTORIES.at(-1)!))}`,
      ],
    },
  ],
  memberGone: (before, m) => {
    const cs = before.metadata.name;
    const id = m.clusterID;
    const context = fluxContext(before, id);
    const ns = q(before.spec.delivery.flux!.namespace);
    // every guarded Kustomization a member has had: its layers and its verification (its exports
    // units are not guarded: the parent deleted them, and their ServiceExports, with the merge)
    const names = [...LAYER_DIRECTORIES.map((l) => engineName(cs, id, l)), ...(before.spec.verify.job ? [verifyKustomizationName(cs, id)] : [])];
    return [
      {
        text: `Remove the orphaned Flux Kustomizations of ${c(id)} once you no longer want them: they keep ${c('prune: true')}, so turn it off before deleting them, or Flux uninstalls Antrea from ${c(id)}.`,
        commands: names.flatMap((n) => [
          `kubectl --context ${context} -n ${ns} patch kustomization ${q(n)} ${PRUNE_OFF_PATCH}`,
          `kubectl --context ${context} -n ${ns} delete kustomization ${q(n)} --ignore-not-found`,
        ]),
      },
    ];
  },
};

/** Where a cluster's Kustomizations are: a hub Flux holds every cluster's, otherwise the cluster's own Flux. */
const fluxContext = (before: ClusterSet, id: string): string =>
  before.spec.clusters.some((o) => o.delivery.flux?.kubeConfigSecretRef) ? '"$FLUX_CONTEXT"' : q(id);
