import type { CrdModel } from '../../../crd';
import { int32, object, required, string } from '../../../schema';
import { GROUP, ageColumn } from './common';

export const nodeLatencyMonitor: CrdModel = {
  group: GROUP,
  kind: 'NodeLatencyMonitor',
  plural: 'nodelatencymonitors',
  singular: 'nodelatencymonitor',
  shortNames: ['nlm'],
  scope: 'Cluster',
  versions: [
    {
      name: 'v1alpha1',
      served: true,
      storage: true,
      printerColumns: [{ name: 'PingIntervalSeconds', type: 'string', jsonPath: '.spec.pingIntervalSeconds' }, ageColumn],
      schema: required(['spec'], {
        spec: required(['pingIntervalSeconds'], { pingIntervalSeconds: int32({ minimum: 1, default: 60 }) }),
        // a singleton: the only accepted name is "default"
        metadata: object({ name: string({ pattern: '^default$' }) }),
      }),
    },
  ],
};
