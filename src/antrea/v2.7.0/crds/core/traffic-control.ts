import type { CrdModel } from '../../../crd';
import { enumOf, integer, object, required, string, type Schema } from '../../../schema';
import { GROUP, STATUS_SUBRESOURCE, ageColumn, intRange, ipAddress, looseLabelSelector, requiredAlternatives } from './common';

const named = (): Schema => required(['name'], { name: string() });
const vni = () => intRange(0, 16777215);
const udpPort = () => intRange(1, 65535);

// Port kinds both the target and the return port may be; only the target may be an ERSPAN tunnel.
const portKinds = {
  ovsInternal: named(),
  device: named(),
  geneve: required(['remoteIP'], { remoteIP: ipAddress(), vni: vni(), destinationPort: udpPort() }),
  vxlan: required(['remoteIP'], { remoteIP: ipAddress(), vni: vni(), destinationPort: udpPort() }),
  gre: required(['remoteIP'], { remoteIP: ipAddress(), key: intRange(0, 4294967295) }),
};

const erspan: Schema = required(['remoteIP', 'version'], {
  remoteIP: ipAddress(),
  sessionID: intRange(0, 1023),
  version: integer({ enum: [1, 2] }),
  index: integer(),
  dir: integer({ enum: [0, 1] }),
  hardwareID: integer(),
});

const oneKindOf = (kinds: Record<string, Schema>): Schema => object(kinds, { oneOf: requiredAlternatives(...Object.keys(kinds)) });

export const trafficControl: CrdModel = {
  group: GROUP,
  kind: 'TrafficControl',
  plural: 'trafficcontrols',
  singular: 'trafficcontrol',
  shortNames: ['tc'],
  scope: 'Cluster',
  versions: [
    {
      name: 'v1alpha2',
      served: true,
      storage: true,
      printerColumns: [
        { name: 'Direction', type: 'string', jsonPath: '.spec.direction' },
        { name: 'Action', type: 'string', jsonPath: '.spec.action' },
        ageColumn,
      ],
      subresources: STATUS_SUBRESOURCE,
      schema: required(['spec'], {
        spec: required(['appliedTo', 'direction', 'action', 'targetPort'], {
          appliedTo: object({ podSelector: looseLabelSelector(), namespaceSelector: looseLabelSelector() }),
          direction: enumOf(['Ingress', 'Egress', 'Both']),
          action: enumOf(['Mirror', 'Redirect']),
          targetPort: oneKindOf({ ...portKinds, erspan }),
          returnPort: oneKindOf(portKinds),
        }),
      }),
    },
  ],
};
