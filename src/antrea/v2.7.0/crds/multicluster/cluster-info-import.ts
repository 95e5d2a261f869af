/** ClusterInfoImport: another member's ClusterInfo, as imported into a member. */
import type { CrdModel } from '../../../crd';
import { object } from '../../../schema';
import { CONTROLLER_GEN, MC_GROUP, MC_LABELS, ageColumn, clusterInfo, conditions, rootObject } from './common';

export const clusterInfoImport: CrdModel = {
  group: MC_GROUP,
  kind: 'ClusterInfoImport',
  listKind: 'ClusterInfoImportList',
  plural: 'clusterinfoimports',
  singular: 'clusterinfoimport',
  scope: 'Namespaced',
  labels: MC_LABELS,
  annotations: CONTROLLER_GEN,
  versions: [
    {
      name: 'v1alpha1',
      served: true,
      storage: true,
      schema: rootObject({ spec: clusterInfo(), status: object({ conditions: conditions() }) }),
      subresources: { status: {} },
      printerColumns: [
        { name: 'Cluster ID', type: 'string', jsonPath: '.spec.clusterID' },
        { name: 'Service CIDR', type: 'string', jsonPath: '.spec.serviceCIDR' },
        ageColumn,
      ],
    },
  ],
};
