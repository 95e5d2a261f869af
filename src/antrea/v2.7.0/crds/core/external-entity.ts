import type { CrdModel } from '../../../crd';
import { array, enumOf, intOrString, object, string } from '../../../schema';
import { APP_LABEL, GROUP, ipAddress } from './common';

export const externalEntity: CrdModel = {
  group: GROUP,
  kind: 'ExternalEntity',
  plural: 'externalentities',
  singular: 'externalentity',
  shortNames: ['ee'],
  scope: 'Namespaced',
  labels: APP_LABEL,
  versions: [
    {
      name: 'v1alpha2',
      served: true,
      storage: true,
      schema: object({
        spec: object({
          endpoints: array(object({ ip: ipAddress(), name: string() })),
          ports: array(object({ protocol: enumOf(['TCP', 'UDP', 'SCTP']), port: intOrString(), name: string() })),
          externalNode: string(),
        }),
      }),
    },
  ],
};
