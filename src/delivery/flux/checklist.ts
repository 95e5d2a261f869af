import { code as c } from '../../markdown';
import { shellQuote as q } from '../../shell-quote';
import type { ChecklistWords } from '../engine';
import { engineName } from '../engine-names';
import { LAYER_DIRECTORIES } from '../layer-paths';

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
        text: `Bootstrap Flux in ${c(id)} if it has none, with a source for this repository: its own Flux applies ${c(`dist/${cs}/flux/${id}/`)} (after the leader, by hand: nothing orders Fluxes of different clusters).`,
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
};
