import type { CrdModel } from '../../../crd';
import { array, boolean, object, required, string, type Schema } from '../../../schema';
import { APP_LABEL, GROUP, ageColumn, looseLabelSelector } from './common';

// Linux interface names: at most 15 bytes (IFNAMSIZ - 1).
const interfaceName = (): Schema => string({ minLength: 1, maxLength: 15, pattern: '^[a-zA-Z0-9._-]+$' });

// A VLAN ID 0-4094, or a range of two such IDs.
const vlanId = '(?:[0-9]{1,3}|[1-3][0-9]{3}|40[0-8][0-9]|409[0-4])';
const vlanIdOrRange = `^(${vlanId}|${vlanId}-${vlanId})$`;

export const antreaNodeConfig: CrdModel = {
  group: GROUP,
  kind: 'AntreaNodeConfig',
  plural: 'antreanodeconfigs',
  singular: 'antreanodeconfig',
  shortNames: ['anc'],
  scope: 'Cluster',
  labels: APP_LABEL,
  versions: [
    {
      name: 'v1alpha1',
      served: true,
      storage: true,
      printerColumns: [ageColumn],
      schema: required(['spec'], {
        spec: required(['nodeSelector'], {
          nodeSelector: looseLabelSelector(),
          secondaryNetwork: object({
            ovsBridges: array(
              required(['bridgeName'], {
                bridgeName: interfaceName(),
                physicalInterfaces: array(
                  required(['name'], {
                    name: interfaceName(),
                    allowedVLANs: array(string({ pattern: vlanIdOrRange }), { 'x-kubernetes-list-type': 'set' }),
                  }),
                  { maxItems: 8, 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['name'] },
                ),
                enableMulticastSnooping: boolean({ default: false }),
              }),
              {
                maxItems: 1,
                'x-kubernetes-list-type': 'map',
                'x-kubernetes-list-map-keys': ['bridgeName'],
                // CEL transition rule and its message must match upstream byte for byte (the API server reports it)
                'x-kubernetes-validations': [
                  {
                    rule: 'oldSelf.all(o, self.exists(s, s.bridgeName == o.bridgeName))',
                    message: 'bridgeName is immutable — existing bridge names cannot be removed or renamed',
                  },
                ],
              },
            ),
          }),
        }),
      }),
    },
  ],
};
