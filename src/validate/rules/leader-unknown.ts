import { didYouMean } from '../../model/did-you-mean';
import type { ModelRule } from '../rule';

export const leaderUnknown: ModelRule = {
  id: 'leader-unknown',
  severity: 'error',
  description: 'spec.leader.clusterID names no cluster of spec.clusters',
  validate({ definition, clusters, report }) {
    const id = definition.spec.leader.clusterID;
    if (clusters.some((c) => c.clusterID === id)) return;
    const ids = clusters.map((c) => c.clusterID);
    const meant = didYouMean(id, ids);
    report({
      path: ['spec', 'leader', 'clusterID'],
      message: `leader "${id}" is not one of the clusters`,
      hint: `${meant ? `did you mean "${meant}"? ` : ''}declare it under spec.clusters or pick one of: ${ids.join(', ')}`,
    });
  },
};
