import type { CrdModel } from '../../../crd';
import { object, required, string } from '../../../schema';
import { APP_LABEL, GROUP, ageColumn, intRange } from './common';

export const tier: CrdModel = {
  group: GROUP,
  kind: 'Tier',
  plural: 'tiers',
  singular: 'tier',
  shortNames: ['tr'],
  scope: 'Cluster',
  labels: APP_LABEL,
  versions: [
    {
      name: 'v1beta1',
      served: true,
      storage: true,
      printerColumns: [{ name: 'Priority', type: 'integer', jsonPath: '.spec.priority' }, ageColumn],
      // `description` here is a spec field of the Tier, not schema prose
      schema: object({ spec: required(['priority'], { priority: intRange(0, 255), description: string() }) }),
    },
  ],
};
