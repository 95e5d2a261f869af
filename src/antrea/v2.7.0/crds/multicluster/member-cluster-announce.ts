/** MemberClusterAnnounce: written by a member into the leader Namespace; top-level fields, no spec. */
import type { CrdModel } from '../../../crd';
import { string } from '../../../schema';
import { CONTROLLER_GEN, MC_GROUP, MC_LABELS, ageColumn, rootObject } from './common';

export const memberClusterAnnounce: CrdModel = {
  group: MC_GROUP,
  kind: 'MemberClusterAnnounce',
  listKind: 'MemberClusterAnnounceList',
  plural: 'memberclusterannounces',
  singular: 'memberclusterannounce',
  scope: 'Namespaced',
  labels: MC_LABELS,
  annotations: CONTROLLER_GEN,
  versions: [
    {
      name: 'v1alpha1',
      served: true,
      storage: true,
      schema: rootObject({ clusterID: string(), clusterSetID: string(), leaderClusterID: string() }),
      // upstream emits an empty subresources object: no status subresource
      subresources: {},
      printerColumns: [
        { name: 'Cluster ID', type: 'string', jsonPath: '.clusterID' },
        { name: 'ClusterSet ID', type: 'string', jsonPath: '.clusterSetID' },
        ageColumn,
      ],
    },
  ],
};
