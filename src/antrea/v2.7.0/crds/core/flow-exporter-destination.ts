import type { CrdModel } from '../../../crd';
import { array, enumOf, int32, object, required, string, type Schema } from '../../../schema';
import { APP_LABEL, GROUP, requiredAlternatives } from './common';

const secretLikeRef = (): Schema => required(['namespace', 'name'], { namespace: string({ minLength: 1 }), name: string({ minLength: 1 }) });

export const flowExporterDestination: CrdModel = {
  group: GROUP,
  kind: 'FlowExporterDestination',
  plural: 'flowexporterdestinations',
  singular: 'flowexporterdestination',
  shortNames: ['flowexporterdest'],
  scope: 'Cluster',
  labels: APP_LABEL,
  versions: [
    {
      name: 'v1alpha1',
      served: true,
      storage: true,
      printerColumns: [{ name: 'Address:Port', type: 'string', jsonPath: '.spec.address' }],
      schema: required(['spec'], {
        spec: required(['address', 'protocol'], {
          address: string({ pattern: '^.+:[0-9]+$' }),
          protocol: object(
            {
              ipfix: required(['transport'], { transport: enumOf(['tcp', 'udp', 'tls']) }),
              grpc: { type: 'object' },
            },
            { oneOf: requiredAlternatives('ipfix', 'grpc') },
          ),
          filter: object({ protocols: array(enumOf(['tcp', 'udp', 'sctp'])) }),
          activeFlowExportTimeoutSeconds: int32({ minimum: 1, default: 5 }),
          idleFlowExportTimeoutSeconds: int32({ minimum: 1, default: 15 }),
          tlsConfig: required(['caConfigMap'], {
            minTLSVersion: enumOf(['VersionTLS12', 'VersionTLS13'], { default: 'VersionTLS12' }),
            serverName: string({ minLength: 1 }),
            caConfigMap: secretLikeRef(),
            clientSecret: secretLikeRef(),
          }),
        }),
      }),
    },
  ],
};
