/**
 * Bitnami SealedSecret (bitnami.com/v1alpha1): no schema package models it, so this is our own,
 * limited to what the compiler emits and what the controller reads. Unknown fields are errors.
 */
import type { Schema } from '../antrea/schema';

const stringMap: Schema = { type: 'object', additionalProperties: { type: 'string' } };
const DNS_SUBDOMAIN = '^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$';
const DNS_LABEL = '^[a-z0-9]([-a-z0-9]*[a-z0-9])?$';

const name: Schema = { type: 'string', maxLength: 253, pattern: DNS_SUBDOMAIN };
const namespace: Schema = { type: 'string', maxLength: 63, pattern: DNS_LABEL };

export const SEALED_SECRET_API_VERSION = 'bitnami.com/v1alpha1';

export const sealedSecretSchema: Schema = {
  type: 'object',
  required: ['apiVersion', 'kind', 'metadata', 'spec'],
  properties: {
    apiVersion: { type: 'string', enum: [SEALED_SECRET_API_VERSION] },
    kind: { type: 'string', enum: ['SealedSecret'] },
    metadata: {
      type: 'object',
      required: ['name', 'namespace'],
      properties: { name, namespace, labels: stringMap, annotations: stringMap },
    },
    spec: {
      type: 'object',
      required: ['encryptedData'],
      properties: {
        // kubeseal ciphertext per key; its encoding is the definition's concern, not the output's
        encryptedData: { type: 'object', minProperties: 1, additionalProperties: { type: 'string', minLength: 1 } },
        template: {
          type: 'object',
          properties: {
            metadata: { type: 'object', properties: { name, namespace, labels: stringMap, annotations: stringMap } },
            type: { type: 'string' },
            immutable: { type: 'boolean' },
            data: stringMap,
          },
        },
      },
    },
  },
};
