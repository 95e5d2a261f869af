import { code as c } from '../../markdown';
import { shellQuote as q } from '../../shell-quote';
import type { ChecklistWords } from '../engine';

/** Argo CD in the plan's checklist: a joining member is a destination to register; RollingSync orders the leader first. */
export const argoCdChecklist: ChecklistWords = {
  memberJoins: (after, m) => {
    const destination = m.cluster.delivery.argocd;
    if (!destination) return [];
    const id = m.clusterID;
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
};
