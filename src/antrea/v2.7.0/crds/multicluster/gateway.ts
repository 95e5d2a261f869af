/** Gateway: one per gateway Node of a member, written by its mc-controller; top-level fields, no spec. */
import type { CrdModel } from '../../../crd';
import { string } from '../../../schema';
import { CONTROLLER_GEN, MC_GROUP, MC_LABELS, ageColumn, rootObject, wireGuardInfo } from './common';

export const gateway: CrdModel = {
  group: MC_GROUP,
  kind: 'Gateway',
  listKind: 'GatewayList',
  plural: 'gateways',
  singular: 'gateway',
  scope: 'Namespaced',
  labels: MC_LABELS,
  annotations: CONTROLLER_GEN,
  versions: [
    {
      name: 'v1alpha1',
      served: true,
      storage: true,
      schema: rootObject({
        gatewayIP: string(),
        internalIP: string(),
        serviceCIDR: string(),
        wireGuard: wireGuardInfo(),
      }),
      subresources: { status: {} },
      printerColumns: [
        { name: 'Gateway IP', type: 'string', jsonPath: '.gatewayIP' },
        { name: 'Internal IP', type: 'string', jsonPath: '.internalIP' },
        ageColumn,
      ],
    },
  ],
};
