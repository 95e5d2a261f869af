import type { CrdModel } from '../../../crd';
import { array, boolean, integer, object, required, string, type Schema } from '../../../schema';
import { APP_LABEL, GROUP, STATUS_SUBRESOURCE, ageColumn, intRange, ipAddress, transportPorts } from './common';

const byte = () => intRange(0, 255);
const uint16 = () => intRange(0, 65535);

// The same header shapes describe the packet to inject (spec) and the one captured (status).
const ipHeader = (): Schema => object({ protocol: byte(), ttl: byte(), flags: intRange(0, 7) });
const ipv6Header = (): Schema => object({ nextHeader: uint16(), hopLimit: uint16() });
const transportHeader = (): Schema =>
  object({
    icmp: object({ id: uint16(), sequence: uint16() }),
    udp: object(transportPorts()),
    tcp: object({ ...transportPorts(), flags: byte() }),
  });

// shown with `-o wide` only
const wideColumn = (name: string, type: 'string' | 'boolean' | 'integer', jsonPath: string) => ({
  name,
  type,
  jsonPath,
  priority: 10,
});

export const traceflow: CrdModel = {
  group: GROUP,
  kind: 'Traceflow',
  plural: 'traceflows',
  singular: 'traceflow',
  shortNames: ['tf'],
  scope: 'Cluster',
  labels: APP_LABEL,
  versions: [
    {
      name: 'v1beta1',
      served: true,
      storage: true,
      printerColumns: [
        { name: 'Phase', type: 'string', jsonPath: '.status.phase' },
        wideColumn('Source-Pod', 'string', '.spec.source.pod'),
        wideColumn('Destination-Pod', 'string', '.spec.destination.pod'),
        wideColumn('Destination-IP', 'string', '.spec.destination.ip'),
        wideColumn('Live-Traffic', 'boolean', '.spec.liveTraffic'),
        wideColumn('Dropped-Only', 'boolean', '.spec.droppedOnly'),
        wideColumn('Timeout', 'integer', '.spec.timeout'),
        ageColumn,
      ],
      subresources: STATUS_SUBRESOURCE,
      schema: required(['spec'], {
        spec: object({
          source: object({ pod: string(), namespace: string(), ip: ipAddress() }),
          destination: object({ pod: string(), service: string(), namespace: string(), ip: ipAddress() }),
          packet: object({ ipHeader: ipHeader(), ipv6Header: ipv6Header(), transportHeader: transportHeader() }),
          liveTraffic: boolean(),
          droppedOnly: boolean(),
          timeout: intRange(1, 300),
        }),
        status: object({
          reason: string(),
          dataplaneTag: integer(),
          phase: string(),
          startTime: string(),
          results: array(
            object({
              node: string(),
              role: string(),
              timestamp: integer(),
              observations: array(
                object({
                  component: string(),
                  componentInfo: string(),
                  action: string(),
                  pod: string(),
                  dstMAC: string(),
                  networkPolicy: string(),
                  networkPolicyRule: string(),
                  ttl: byte(),
                  translatedSrcIP: string(),
                  translatedDstIP: string(),
                  tunnelDstIP: string(),
                  egressIP: string(),
                  egress: string(),
                  egressNode: string(),
                  srcPodIP: string(),
                }),
              ),
            }),
          ),
          capturedPacket: object({
            srcIP: string(),
            dstIP: string(),
            length: uint16(),
            ipHeader: ipHeader(),
            ipv6Header: ipv6Header(),
            transportHeader: transportHeader(),
          }),
        }),
      }),
    },
  ],
};
