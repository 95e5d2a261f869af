import type { CrdModel } from '../../../crd';
import { array, enumOf, object, required } from '../../../schema';
import { GROUP, ageColumn, int32Range, ipAddress, looseLabelSelector } from './common';

// 2-byte AS numbers only in this API version.
const asn = () => int32Range(1, 65535);
const bgpPort = () => int32Range(1, 65535, { default: 179 });

export const bgpPolicy: CrdModel = {
  group: GROUP,
  kind: 'BGPPolicy',
  plural: 'bgppolicies',
  singular: 'bgppolicy',
  scope: 'Cluster',
  // upstream ships this CRD without the app label
  versions: [
    {
      name: 'v1alpha1',
      served: true,
      storage: true,
      printerColumns: [{ name: 'Local ASN', type: 'integer', jsonPath: '.spec.localASN' }, ageColumn],
      schema: required(['spec'], {
        spec: required(['nodeSelector', 'localASN'], {
          nodeSelector: looseLabelSelector(),
          localASN: asn(),
          listenPort: bgpPort(),
          confederation: object({ identifier: asn(), memberASNs: array(asn()) }),
          advertisements: object({
            service: object({ ipTypes: array(enumOf(['ClusterIP', 'LoadBalancerIP', 'ExternalIP'])) }),
            // presence alone turns the advertisement on
            pod: object({}),
            egress: object({}),
          }),
          bgpPeers: array(
            required(['address', 'asn'], {
              address: ipAddress(),
              port: bgpPort(),
              asn: asn(),
              multihopTTL: int32Range(1, 255, { default: 1 }),
              gracefulRestartTimeSeconds: int32Range(1, 3600, { default: 120 }),
            }),
          ),
        }),
      }),
    },
  ],
};
