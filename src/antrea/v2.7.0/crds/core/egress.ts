import type { CrdModel } from '../../../crd';
import { array, object, required, string } from '../../../schema';
import { APP_LABEL, GROUP, STATUS_SUBRESOURCE, ageColumn, conditions, ipAddress, labelSelector, requiredAlternatives } from './common';

export const egress: CrdModel = {
  group: GROUP,
  kind: 'Egress',
  plural: 'egresses',
  singular: 'egress',
  shortNames: ['eg'],
  scope: 'Cluster',
  labels: APP_LABEL,
  versions: [
    {
      name: 'v1beta1',
      served: true,
      storage: true,
      printerColumns: [
        { name: 'EgressIP', type: 'string', jsonPath: '.status.egressIP' },
        ageColumn,
        { name: 'Node', type: 'string', jsonPath: '.status.egressNode' },
      ],
      subresources: STATUS_SUBRESOURCE,
      schema: required(['spec'], {
        spec: required(
          ['appliedTo'],
          {
            appliedTo: object({ podSelector: labelSelector(), namespaceSelector: labelSelector() }),
            egressIP: ipAddress(),
            // an empty entry stands for an IP not yet allocated from the matching pool
            egressIPs: array(string({ oneOf: [{ maxLength: 0 }, { format: 'ipv4' }, { format: 'ipv6' }] })),
            externalIPPool: string(),
            externalIPPools: array(string()),
            bandwidth: required(['rate', 'burst'], { rate: string(), burst: string() }),
          },
          // either the single-IP fields or the list fields, never both
          {
            oneOf: [{ anyOf: requiredAlternatives('egressIP', 'externalIPPool') }, { anyOf: requiredAlternatives('egressIPs', 'externalIPPools') }],
          },
        ),
        status: object({ egressNode: string(), egressIP: string(), conditions: conditions() }),
      }),
    },
  ],
};
