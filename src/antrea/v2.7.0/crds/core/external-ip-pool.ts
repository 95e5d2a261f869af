import type { CrdModel } from '../../../crd';
import { array, object, required } from '../../../schema';
import { APP_LABEL, GROUP, STATUS_SUBRESOURCE, ageColumn, ipPoolUsage, ipRange, ipPoolUsageColumns, labelSelector, subnetInfo } from './common';

export const externalIPPool: CrdModel = {
  group: GROUP,
  kind: 'ExternalIPPool',
  plural: 'externalippools',
  singular: 'externalippool',
  shortNames: ['eip'],
  scope: 'Cluster',
  labels: APP_LABEL,
  versions: [
    {
      name: 'v1beta1',
      served: true,
      storage: true,
      printerColumns: [...ipPoolUsageColumns, ageColumn],
      subresources: STATUS_SUBRESOURCE,
      schema: required(['spec'], {
        spec: required(['ipRanges', 'nodeSelector'], {
          ipRanges: array(ipRange()),
          subnetInfo: subnetInfo(),
          nodeSelector: labelSelector(),
        }),
        status: object({ usage: ipPoolUsage() }),
      }),
    },
  ],
};
