import { code as c } from '../../text/markdown';
import { shellQuote as q } from '../../text/shell-quote';
import type { ChecklistWords } from '../engine';
import { engineName } from '../engine-names';
import { isArgoCdInCluster } from './destinations';
import { EXPORTS_DIRECTORY, TIER_RESTART_DIRECTORY, VERIFY_DIRECTORY } from '../layer-paths';

/** Argo CD in the plan's checklist: a joining member is a destination to register; RollingSync orders the leader first. */
export const argoCdChecklist: ChecklistWords = {
  memberJoins: (after, m) => {
    const destination = m.cluster.delivery.argocd;
    if (!destination) return [];
    const id = m.clusterID;
    // Argo CD's own cluster is registered already (argocd cluster add is not for it)
    if (isArgoCdInCluster(destination))
      return [
        { text: `${c(id)} is the cluster Argo CD runs in (its Application's destination ${c('in-cluster')}); its AppProject must allow that destination.` },
      ];
    return [
      {
        text:
          'name' in destination
            ? `Register ${c(id)} in Argo CD as cluster ${c(destination.name)} (its Application's destination); its AppProject must allow that destination.`
            : `Register ${c(id)} in Argo CD with the server ${c(destination.server)} (its Application's destination); its AppProject must allow that destination.`,
        commands: [
          `argocd cluster add ${q(id)}${'name' in destination ? ` --name ${q(destination.name)}` : ''}   # the kubeconfig context of ${id}`,
          `kubectl --context "$ARGOCD_CONTEXT" -n ${q(after.spec.delivery.argocd!.namespace)} get secret -l argocd.argoproj.io/secret-type=cluster`,
        ],
      },
    ];
  },
  leaderFirst: () => [],
  // its ApplicationSet controller writes each Application's spec back from its template
  // (applicationset/controllers/applicationset_controller.go, createOrUpdateInCluster) and, under
  // RollingSync, starts the sync of a pending Application itself (progressive_sync.go)
  reappliesDeletedClusterSet: 'Argo CD re-creates a ClusterSet deleted by hand (its ApplicationSet controller owns the Application and syncs it)',
  pauseMember: () => [],
  // the ApplicationSet deletes its Applications with the definition and keeps what they applied
  orphanSteps: () => [],
  memberGone: (before, m) => {
    const cs = before.metadata.name;
    const id = m.clusterID;
    return [
      {
        text: `Argo CD: the ApplicationSets delete the Applications of ${c(id)}; its bundle's and its verification's keep what they applied, its exports and Tier-restart Applications delete theirs (resources finalizer). If you applied ${c('argocd/applications/')} instead, delete them yourself (the same holds: its Antrea stays as it is).`,
        commands: [
          `kubectl --context "$ARGOCD_CONTEXT" -n ${q(before.spec.delivery.argocd!.namespace)} delete application ${[engineName(cs, id), ...[EXPORTS_DIRECTORY, TIER_RESTART_DIRECTORY, VERIFY_DIRECTORY].map((u) => engineName(cs, id, u))].map(q).join(' ')} --ignore-not-found`,
        ],
      },
    ];
  },
};
