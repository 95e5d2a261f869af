import type { CrdModel } from '../../../crd';
import { array, object, string } from '../../../schema';
import { GROUP, STATUS_SUBRESOURCE, conditions, ipBlock, labelSelector, optionalNamespacedName } from './common';

// The namespaced Group's selectors are declared without label-value patterns upstream.
const selector = () => labelSelector({ patternedValues: false, matchLabels: 'preserved' });

export const group: CrdModel = {
  group: GROUP,
  kind: 'Group',
  plural: 'groups',
  singular: 'group',
  shortNames: ['grp'],
  scope: 'Namespaced',
  // upstream ships this CRD without the app label
  versions: [
    {
      name: 'v1beta1',
      served: true,
      storage: true,
      subresources: STATUS_SUBRESOURCE,
      schema: object({
        spec: object({
          childGroups: array(string()),
          podSelector: selector(),
          namespaceSelector: selector(),
          externalEntitySelector: selector(),
          ipBlocks: array(ipBlock()),
          serviceReference: optionalNamespacedName(),
        }),
        status: object({ conditions: conditions() }),
      }),
    },
  ],
};
