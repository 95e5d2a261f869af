import type { CrdModel } from '../../../crd';
import { array, enumOf, integer, object, required, string } from '../../../schema';
import { GROUP, STATUS_SUBRESOURCE, conditions, looseLabelSelector, optionalNamespacedName, requiredAlternatives } from './common';

export const supportBundleCollection: CrdModel = {
  group: GROUP,
  kind: 'SupportBundleCollection',
  plural: 'supportbundlecollections',
  singular: 'supportbundlecollection',
  shortNames: ['sbc'],
  scope: 'Cluster',
  versions: [
    {
      name: 'v1alpha1',
      served: true,
      storage: true,
      subresources: STATUS_SUBRESOURCE,
      schema: object({
        spec: required(
          ['fileServer', 'authentication'],
          {
            nodes: object({ nodeNames: array(string()), nodeSelector: looseLabelSelector() }),
            externalNodes: required(['namespace'], {
              namespace: string(),
              nodeNames: array(string()),
              nodeSelector: looseLabelSelector(),
            }),
            expirationMinutes: integer({ default: 60 }),
            sinceTime: string({ format: 'duration' }),
            fileServer: object({ url: string(), hostPublicKey: string({ format: 'byte' }) }),
            authentication: object({
              authType: enumOf(['BearerToken', 'APIKey', 'BasicAuthentication']),
              authSecret: optionalNamespacedName(),
            }),
          },
          { anyOf: requiredAlternatives('nodes', 'externalNodes') },
        ),
        status: object({ collectedNodes: integer(), desiredNodes: integer(), conditions: conditions() }),
      }),
    },
  ],
};
