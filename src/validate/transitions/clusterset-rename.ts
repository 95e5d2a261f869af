import type { TransitionRule } from '../transition';
import { dissolveSteps } from './dissolve-steps';

/**
 * A Namespace holds one ClusterSet: the ClusterSet webhook refuses to create another while one
 * exists (multicluster/cmd/multicluster-controller/clusterset_webhook.go, clusterSetValidator.Handle).
 * A renamed definition moves every bundle to a new folder and orphans the old delivery objects,
 * which keep the old ClusterSet in each cluster; the new one is then refused everywhere.
 */
export const clustersetRename: TransitionRule = {
  id: 'clusterset-rename',
  severity: 'error',
  description: 'a ClusterSet is renamed; the old one stays in its Namespace and Antrea refuses the new one',
  validate({ before, after, report }) {
    const from = before.definition.metadata.name;
    const to = after.definition.metadata.name;
    if (from === to) return;
    report({
      path: ['metadata', 'name'],
      message: `ClusterSet "${from}" is renamed to "${to}": the old ClusterSet stays in every cluster (its delivery objects are orphaned) and Antrea's ClusterSet webhook refuses a second ClusterSet in the same Namespace`,
      steps: dissolveSteps(before, `add the definition as "${to}"`),
      related: [{ path: ['metadata', 'name'], before: true, message: `the clusters run ClusterSet "${from}"` }],
    });
  },
};
