import type { CrdModel } from '../../../crd';
import { array, enumOf, int32, integer, intOrString, object, required, string, type Schema } from '../../../schema';
import { APP_LABEL, GROUP, STATUS_SUBRESOURCE, ageColumn, conditions, intRange, ipAddress, requiredAlternatives, transportPorts } from './common';

// CEL rules and their messages are API behaviour (the API server returns them), so they match upstream exactly.
const endpoint: Schema = object(
  {
    pod: required(['name'], { namespace: string({ default: 'default' }), name: string() }),
    ip: ipAddress(),
  },
  { 'x-kubernetes-validations': [{ rule: '!(has(self.pod) && has(self.ip))', message: "At most one of 'pod' or 'ip' may be set" }] },
);

const icmpMessages = (): Schema => object({ messages: array(required(['type'], { type: intOrString(), code: intRange(0, 255) })) });

const conditionStatusColumn = (name: string, type: string, priority?: number) => ({
  name,
  type: 'string' as const,
  jsonPath: `.status.conditions[?(@.type=="${type}")].status`,
  ...(priority === undefined ? {} : { priority }),
});

export const packetCapture: CrdModel = {
  group: GROUP,
  kind: 'PacketCapture',
  plural: 'packetcaptures',
  singular: 'packetcapture',
  shortNames: ['pcap'],
  scope: 'Cluster',
  labels: APP_LABEL,
  versions: [
    {
      name: 'v1alpha1',
      served: true,
      storage: true,
      printerColumns: [
        { name: 'Source-Pod', type: 'string', jsonPath: '.spec.source.pod', priority: 10 },
        { name: 'Destination-Pod', type: 'string', jsonPath: '.spec.destination.pod', priority: 10 },
        { name: 'Source-IP', type: 'string', jsonPath: '.spec.source.ip', priority: 10 },
        { name: 'Destination-IP', type: 'string', jsonPath: '.spec.destination.ip', priority: 10 },
        { name: 'Timeout', type: 'integer', jsonPath: '.spec.timeout', priority: 10 },
        ageColumn,
        { name: 'Captured-Packets', type: 'integer', jsonPath: '.status.numberCaptured' },
        conditionStatusColumn('Started', 'PacketCaptureStarted'),
        conditionStatusColumn('Complete', 'PacketCaptureComplete'),
        conditionStatusColumn('Uploaded', 'PacketCaptureFileUploaded', 10),
      ],
      subresources: STATUS_SUBRESOURCE,
      schema: required(['spec'], {
        spec: required(
          ['captureConfig'],
          {
            source: endpoint,
            destination: endpoint,
            packet: object({
              ipFamily: enumOf(['IPv4', 'IPv6'], { default: 'IPv4' }),
              protocol: intOrString(),
              transportHeader: object(
                {
                  udp: object(transportPorts()),
                  tcp: object({
                    ...transportPorts(),
                    flags: array(required(['value'], { value: intRange(0, 255), mask: intRange(0, 255) })),
                  }),
                  icmp: icmpMessages(),
                  icmpv6: icmpMessages(),
                },
                {
                  'x-kubernetes-validations': [
                    {
                      rule: '(has(self.icmp) ? 1 : 0) + (has(self.icmpv6) ? 1 : 0) + (has(self.udp) ? 1 : 0) + (has(self.tcp) ? 1: 0) <= 1',
                      message: "At most one of 'ICMP', 'ICMPv6', 'UDP', or 'TCP' may be set",
                    },
                  ],
                },
              ),
            }),
            direction: enumOf(['SourceToDestination', 'DestinationToSource', 'Both'], { default: 'SourceToDestination' }),
            capturePoint: enumOf(['Source', 'Destination']),
            timeout: intRange(1, 300, { default: 60 }),
            captureConfig: object({ firstN: required(['number'], { number: int32() }) }, { oneOf: requiredAlternatives('firstN') }),
            fileServer: object({
              url: string({ pattern: 'sftp:\\/\\/([\\w-_./]+|\\[[\\w-_.:/]+\\]):\\d+' }),
              hostPublicKey: string({ format: 'byte' }),
            }),
          },
          {
            'x-kubernetes-validations': [
              {
                rule: 'has(self.source.pod) || has(self.destination.pod)',
                message: 'At least one of source.pod or destination.pod must be specified.',
              },
              {
                rule: "!(has(self.capturePoint) && self.capturePoint == 'Source') || has(self.source.pod)",
                message: "source.pod must be set when capturePoint is 'Source'",
              },
              {
                rule: "!(has(self.capturePoint) && self.capturePoint == 'Destination') || has(self.destination.pod)",
                message: "destination.pod must be set when capturePoint is 'Destination'",
              },
            ],
          },
        ),
        status: object({ numberCaptured: integer(), filePath: string(), conditions: conditions() }),
      }),
    },
  ],
};
