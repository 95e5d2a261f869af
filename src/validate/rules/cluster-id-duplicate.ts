import type { EffectiveCluster } from '../../model/effective';
import type { ModelRule } from '../rule';

export const clusterIdDuplicate: ModelRule = {
  id: 'cluster-id-duplicate',
  severity: 'error',
  description: 'two clusters share a clusterID',
  validate({ clusters, report }) {
    const first = new Map<string, EffectiveCluster>();
    for (const c of clusters) {
      const earlier = first.get(c.clusterID);
      if (!earlier) {
        first.set(c.clusterID, c);
        continue;
      }
      report({
        path: [...c.path, 'clusterID'],
        message: `cluster ID "${c.clusterID}" is declared twice`,
        hint: 'each cluster needs its own ID; rename this one or merge the two entries',
        related: [{ path: [...earlier.path, 'clusterID'], message: `"${c.clusterID}" is first declared here` }],
      });
    }
  },
};
