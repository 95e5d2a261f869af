/**
 * A small builder for the structural OpenAPI v3 schemas that CustomResourceDefinitions carry.
 * Antrea's API is modeled with these builders, one file per kind, so that the same value
 * gives the CRD we emit and the ajv validator we check objects with.
 */

export interface Schema {
  type?: 'object' | 'array' | 'string' | 'integer' | 'number' | 'boolean';
  description?: string;
  format?: string;
  pattern?: string;
  enum?: readonly unknown[];
  default?: unknown;
  nullable?: boolean;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: boolean;
  exclusiveMaximum?: boolean;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  minProperties?: number;
  maxProperties?: number;
  uniqueItems?: boolean;
  properties?: Record<string, Schema>;
  required?: readonly string[];
  additionalProperties?: Schema | boolean;
  items?: Schema;
  oneOf?: readonly Schema[];
  anyOf?: readonly Schema[];
  allOf?: readonly Schema[];
  not?: Schema;
  'x-kubernetes-int-or-string'?: boolean;
  'x-kubernetes-preserve-unknown-fields'?: boolean;
  'x-kubernetes-embedded-resource'?: boolean;
  'x-kubernetes-list-type'?: 'atomic' | 'set' | 'map';
  'x-kubernetes-list-map-keys'?: readonly string[];
  'x-kubernetes-map-type'?: 'atomic' | 'granular';
  'x-kubernetes-validations'?: readonly { rule: string; message?: string; messageExpression?: string; reason?: string; fieldPath?: string }[];
}

/** Extra keywords for a builder; `required` is listed separately on objects. */
export type Extra = Omit<Schema, 'type' | 'properties' | 'items'>;

export const object = (properties: Record<string, Schema>, extra: Extra = {}): Schema => ({
  type: 'object',
  properties,
  ...extra,
});
/** An object with only these keys required. */
export const required = (keys: readonly string[], properties: Record<string, Schema>, extra: Extra = {}): Schema =>
  object(properties, { required: keys, ...extra });
export const string = (extra: Extra = {}): Schema => ({ type: 'string', ...extra });
export const enumOf = (values: readonly string[], extra: Extra = {}): Schema => ({ type: 'string', enum: values, ...extra });
export const boolean = (extra: Extra = {}): Schema => ({ type: 'boolean', ...extra });
export const integer = (extra: Extra = {}): Schema => ({ type: 'integer', ...extra });
export const int32 = (extra: Extra = {}): Schema => ({ type: 'integer', format: 'int32', ...extra });
export const int64 = (extra: Extra = {}): Schema => ({ type: 'integer', format: 'int64', ...extra });
export const number = (extra: Extra = {}): Schema => ({ type: 'number', ...extra });
export const array = (items: Schema, extra: Extra = {}): Schema => ({ type: 'array', items, ...extra });
/** `x-kubernetes-list-type: atomic`, the controller-gen default for Go slices. */
export const atomicArray = (items: Schema, extra: Extra = {}): Schema => array(items, { 'x-kubernetes-list-type': 'atomic', ...extra });
export const map = (values: Schema, extra: Extra = {}): Schema => ({ type: 'object', additionalProperties: values, ...extra });
export const stringMap = (extra: Extra = {}): Schema => map(string(), extra);
export const intOrString = (extra: Extra = {}): Schema => ({ 'x-kubernetes-int-or-string': true, ...extra });
export const preserveUnknown = (extra: Extra = {}): Schema => ({ type: 'object', 'x-kubernetes-preserve-unknown-fields': true, ...extra });
