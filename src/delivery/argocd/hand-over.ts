import { removeArgoApplications } from './removal';
import { code } from '../../text/markdown';
import { shellQuote as q } from '../../text/shell-quote';
import type { HandOverWords } from '../engine';
import { LABELS } from '../engine-names';

/**
 * Argo CD leaving a ClusterSet: the ApplicationSets were applied by hand and keep their lists of
 * clusters, so their Applications keep syncing the bundles until they are deleted. Deleting an
 * ApplicationSet deletes its Applications (owner references: applicationset_controller.go,
 * createOrUpdateInCluster), and an Application deleted while it carries the resources finalizer
 * deletes what it applied (controller/appcontroller.go, finalizeApplicationDeletion,
 * CascadedDeletion). The bundles' ApplicationSet leaves the finalizer out
 * (preserveResourcesOnDeletion, applicationset/utils/utils.go RenderTemplateParams), but the exports
 * units carry it so that a Service leaving git stops being exported: the ApplicationSets are deleted
 * with `--cascade=orphan`, then each Application with its finalizers taken off first
 * (removeArgoApplications), so the ServiceExports stay too.
 */
export const argoCdHandOver: HandOverWords = {
  detail: (cs) =>
    `Argo CD: the ApplicationSets applied from dist/${cs}/argocd/ keep their cluster lists and sync the bundles until they are deleted; deleting one deletes its Applications, and an Application deleted with the resources finalizer (the exports units carry it) deletes what it applied (controller/appcontroller.go, finalizeApplicationDeletion): the ApplicationSets go with --cascade=orphan, then each Application with its finalizers off`,
  exportsUnitsGo: 'Argo CD deletes its exports Application, whose resources finalizer deletes them',
  // its verify Application goes with the ApplicationSet's list and keeps what it applied, as the bundles do
  withdrawn: () => [],
  removalStep: ', each Application with its finalizers off once its ApplicationSet is gone',
  // argo-cd common/common.go ArgoCDSSAManager: the bundles' Applications sync with ServerSideApply=true
  fieldManager: 'argocd-controller',
  // an app-of-apps that applies argocd/applications/ with automated prune deletes those Applications as soon as the
  // merge takes the folder out of git (gitops-engine sync: a live resource no longer in git is pruned), and the
  // exports units' resources finalizer then deletes the ServiceExports: only a step before the merge prevents it
  beforeMerging: (before) => {
    const cs = before.metadata.name;
    return [
      {
        text: `If an app-of-apps of yours applies ${code(`dist/${cs}/argocd/applications/`)}, turn its automated prune off before merging: the merge takes that folder out of git, and with prune on it deletes those Applications at once, the exports units' resources finalizer taking the ServiceExports along. After merging, the checklist's commands remove them with their finalizers off.`,
      },
    ];
  },
  removal: (before) => {
    const cs = before.metadata.name;
    const namespace = before.spec.delivery.argocd!.namespace;
    const own = q(`${LABELS.clusterSet}=${cs}`);
    return {
      text: `Then remove Argo CD's ApplicationSets of ${code(cs)} without their Applications, then each Application with its finalizers taken off first, or the exports units delete the ServiceExports.`,
      commands: [
        `kubectl --context "$ARGOCD_CONTEXT" -n ${q(namespace)} delete applicationset -l ${own} --cascade=orphan`,
        removeArgoApplications('"$ARGOCD_CONTEXT"', namespace, own),
      ],
    };
  },
};
