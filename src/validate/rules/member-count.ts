import { members } from '../../model/effective';
import type { ModelRule } from '../rule';

export const memberCount: ModelRule = {
  id: 'member-count',
  severity: 'warning',
  description: 'the ClusterSet has fewer than two members',
  validate({ definition, clusters, report }) {
    const count = members(clusters).length;
    if (count >= 2) return;
    report({
      path: ['spec', 'clusters'],
      message: `the ClusterSet "${definition.metadata.name}" has ${count === 0 ? 'no members' : 'only one member'}`,
      hint: 'declare at least two member clusters; a dedicated leader (member: false) does not count',
    });
  },
};
