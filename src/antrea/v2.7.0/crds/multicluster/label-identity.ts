/** LabelIdentity: cluster-scoped copy of a leader-allocated label identity, for stretched policies. */
import type { CrdModel } from '../../../crd';
import { CONTROLLER_GEN, MC_GROUP, MC_LABELS, ageColumn, labelIdentitySpec, rootObject } from './common';

export const labelIdentity: CrdModel = {
  group: MC_GROUP,
  kind: 'LabelIdentity',
  listKind: 'LabelIdentityList',
  plural: 'labelidentities',
  singular: 'labelidentity',
  scope: 'Cluster',
  labels: MC_LABELS,
  annotations: CONTROLLER_GEN,
  versions: [
    {
      name: 'v1alpha1',
      served: true,
      storage: true,
      schema: rootObject({ spec: labelIdentitySpec() }),
      // upstream emits an empty subresources object: no status subresource
      subresources: {},
      printerColumns: [{ name: 'Label', type: 'string', jsonPath: '.spec.label' }, { name: 'ID', type: 'string', jsonPath: '.spec.id' }, ageColumn],
    },
  ],
};
