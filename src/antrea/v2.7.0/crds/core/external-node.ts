import type { CrdModel } from '../../../crd';
import { array, object, required, string } from '../../../schema';
import { APP_LABEL, GROUP, ipAddress } from './common';

export const externalNode: CrdModel = {
  group: GROUP,
  kind: 'ExternalNode',
  plural: 'externalnodes',
  singular: 'externalnode',
  shortNames: ['en'],
  scope: 'Namespaced',
  labels: APP_LABEL,
  versions: [
    {
      name: 'v1alpha1',
      served: true,
      storage: true,
      schema: required(['spec'], {
        spec: required(['interfaces'], {
          // upstream puts `required` on the array itself, where it has no effect; kept for equality
          interfaces: array(object({ ips: array(ipAddress(), { minItems: 1 }), name: string() }), {
            minItems: 1,
            maxItems: 1,
            required: ['ips'],
          }),
        }),
      }),
    },
  ],
};
