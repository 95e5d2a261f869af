import type { CrdModel } from '../../../crd';
import { array, object, string } from '../../../schema';
import { APP_LABEL, GROUP, STATUS_SUBRESOURCE, conditions, ipBlock, labelSelector, optionalNamespacedName } from './common';

export const clusterGroup: CrdModel = {
  group: GROUP,
  kind: 'ClusterGroup',
  plural: 'clustergroups',
  singular: 'clustergroup',
  shortNames: ['cg'],
  scope: 'Cluster',
  labels: APP_LABEL,
  versions: [
    {
      name: 'v1beta1',
      served: true,
      storage: true,
      subresources: STATUS_SUBRESOURCE,
      schema: object({
        spec: object({
          childGroups: array(string()),
          podSelector: labelSelector(),
          namespaceSelector: labelSelector(),
          nodeSelector: labelSelector(),
          externalEntitySelector: labelSelector(),
          ipBlocks: array(ipBlock()),
          serviceReference: optionalNamespacedName(),
        }),
        status: object({ conditions: conditions() }),
      }),
    },
  ],
};
