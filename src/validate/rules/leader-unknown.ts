import type { ModelRule } from '../rule';

export const leaderUnknown: ModelRule = {
  id: 'leader-unknown',
  severity: 'error',
  description: 'spec.leader.clusterID names no cluster of spec.clusters',
  check({ definition, clusters, report }) {
    const id = definition.spec.leader.clusterID;
    if (clusters.some((c) => c.clusterID === id)) return;
    report({
      path: ['spec', 'leader', 'clusterID'],
      message: `leader "${id}" is not one of the clusters`,
      hint: `declare it under spec.clusters or pick one of: ${clusters.map((c) => c.clusterID).join(', ')}`,
    });
  },
};
