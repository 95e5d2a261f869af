/**
 * mcs-api ServiceExport (v1alpha1), as vendored in the member manifest: no spec, the object's
 * name and Namespace select the Service. Not controller-gen stamped, and no listKind.
 */
import type { CrdModel } from '../../../crd';
import { object } from '../../../schema';
import { MC_LABELS, ageColumn, rootObject } from './common';
import { metaConditions } from './kubernetes';
import { MCS_GROUP } from './mcs';

export const serviceExport: CrdModel = {
  group: MCS_GROUP,
  kind: 'ServiceExport',
  plural: 'serviceexports',
  singular: 'serviceexport',
  shortNames: ['svcex'],
  scope: 'Namespaced',
  labels: MC_LABELS,
  versions: [
    {
      name: 'v1alpha1',
      served: true,
      storage: true,
      schema: rootObject({ status: object({ conditions: metaConditions() }) }),
      subresources: { status: {} },
      printerColumns: [ageColumn],
    },
  ],
};
