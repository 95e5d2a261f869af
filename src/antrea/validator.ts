/**
 * Checks values against the CRD schemas we model, the way the Kubernetes API server would
 * (with strict field validation, kubectl's default): structural OpenAPI v3 compiled by ajv.
 *
 * What the API server does and ajv does not, and how it is bridged here:
 * - OpenAPI 3.0 keywords (`nullable`, boolean `exclusiveMinimum`) and `x-kubernetes-int-or-string`
 *   are rewritten into JSON Schema before compiling (on a copy; models are never mutated);
 * - unknown fields are reported (the API server prunes them, or rejects them under strict
 *   validation): every object without `x-kubernetes-preserve-unknown-fields` is closed;
 * - `x-kubernetes-list-type: set | map` is checked for duplicates by a keyword of our own;
 * - formats are our own handlers; a format Kubernetes does not know is accepted, as upstream does;
 * - patterns are RE2; compiled without the `u` flag, the subset the CRDs use behaves the same.
 * Not evaluated: `x-kubernetes-validations` (CEL), defaults, metadata beyond name/namespace/labels.
 */
import Ajv, { type ErrorObject, type SchemaValidateFunction, type ValidateFunction } from 'ajv';
import type { CrdModel } from './crd';
import type { Schema } from './schema';
import { FORMATS, formatNoun } from './schema-formats';

export type SchemaPath = (string | number)[];

/** One schema violation; `path` is the data path, ready to map back to a source position. */
export interface SchemaIssue {
  readonly path: SchemaPath;
  readonly message: string;
}

export interface ValidateOptions {
  /** `reject` (default): unknown fields are issues, as under strict field validation; `prune`: ignored */
  readonly unknownFields?: 'reject' | 'prune';
}

// ---- ajv instance

const LIST_TYPE_KEYWORD = 'x-kubernetes-list-type';

const ajv = new Ajv({
  allErrors: true,
  // errors carry their parent schema, which names the alternatives of a failed oneOf/anyOf
  verbose: true,
  // x-kubernetes-* and OpenAPI-only keywords are not JSON Schema; they are ignored or handled below
  strict: false,
  unicodeRegExp: false,
  validateFormats: true,
  formats: FORMATS,
  // ajv's optimizing pass over generated code costs a third of compiling a large CRD schema (the
  // ACNP spec: ~150 → ~100 ms, paid by every validate of a definition with policies) and did not
  // make validation measurably faster (20,000 ACNP specs: 47 ms either way)
  code: { optimize: false },
});

/** Duplicate entries of `set` lists and duplicate keys of `map` lists, which the API server rejects. */
const listType: SchemaValidateFunction = (listKind: string, data: unknown[], parent, cxt) => {
  if (listKind !== 'set' && listKind !== 'map') return true;
  const mapKeys = (parent as Schema | undefined)?.['x-kubernetes-list-map-keys'] ?? [];
  const keyOf = (item: unknown): string =>
    listKind === 'set' ? JSON.stringify(item) : JSON.stringify(mapKeys.map((k) => (item as Record<string, unknown> | null)?.[k]));
  const seen = new Map<string, number>();
  const errors: Partial<ErrorObject>[] = [];
  data.forEach((item, i) => {
    const key = keyOf(item);
    const first = seen.get(key);
    if (first === undefined) seen.set(key, i);
    else
      errors.push({
        keyword: LIST_TYPE_KEYWORD,
        // errors of function keywords carry absolute paths
        instancePath: `${cxt?.instancePath ?? ''}/${i}`,
        message: listKind === 'set' ? `duplicates entry ${first}` : `duplicates the ${mapKeys.join('/')} of entry ${first}`,
        params: { duplicateOf: first },
      });
  });
  listType.errors = errors;
  return errors.length === 0;
};
ajv.addKeyword({ keyword: LIST_TYPE_KEYWORD, type: 'array', schemaType: 'string', errors: true, validate: listType });

// ---- schema rewriting: OpenAPI/Kubernetes structural schema → JSON Schema for ajv

type Json = Record<string, unknown>;

function collectFormats(s: unknown, into: Set<string>): void {
  if (Array.isArray(s)) s.forEach((x) => collectFormats(x, into));
  else if (s && typeof s === 'object') {
    for (const [k, v] of Object.entries(s)) {
      if (k === 'format' && typeof v === 'string') into.add(v);
      else collectFormats(v, into);
    }
  }
}

/**
 * A JSON Schema copy of a structural schema. `closed` marks positions where unknown fields are
 * reported; junctor branches (`oneOf`, ...) only add constraints and never close anything.
 */
function toJsonSchema(s: Schema, unknownFields: 'reject' | 'prune', closed = true): Json {
  const out: Json = {};
  const preserve = s['x-kubernetes-preserve-unknown-fields'] === true;
  for (const [k, v] of Object.entries(s) as [keyof Schema, unknown][]) {
    switch (k) {
      case 'description':
      case 'nullable':
      case 'default':
        break;
      case 'properties':
        out.properties = Object.fromEntries(Object.entries(v as Record<string, Schema>).map(([p, sub]) => [p, toJsonSchema(sub, unknownFields, true)]));
        break;
      case 'items':
        out.items = toJsonSchema(v as Schema, unknownFields, true);
        break;
      case 'additionalProperties':
        out.additionalProperties = typeof v === 'boolean' ? v : toJsonSchema(v as Schema, unknownFields, true);
        break;
      case 'oneOf':
      case 'anyOf':
      case 'allOf':
        out[k] = (v as Schema[]).map((b) => toJsonSchema(b, unknownFields, false));
        break;
      case 'not':
        out.not = toJsonSchema(v as Schema, unknownFields, false);
        break;
      case 'exclusiveMinimum':
      case 'exclusiveMaximum':
        // OpenAPI 3.0: a flag on minimum/maximum; JSON Schema: the bound itself
        if (v === true) out[k] = k === 'exclusiveMinimum' ? s.minimum : s.maximum;
        break;
      case 'minimum':
      case 'maximum':
        if (!(k === 'minimum' ? s.exclusiveMinimum : s.exclusiveMaximum)) out[k] = v;
        break;
      default:
        out[k] = v;
    }
  }
  if (s['x-kubernetes-int-or-string'] && !s.type) out.type = ['integer', 'string'];
  if (closed && unknownFields === 'reject' && !preserve && s.type === 'object' && s.additionalProperties === undefined) {
    out.additionalProperties = false;
  }
  // null is allowed for a nullable field whatever its other constraints say
  if (s.nullable === true) return { if: { type: 'null' }, then: true, else: out };
  return out;
}

// ---- compile, cached per schema object

const compiled = { reject: new WeakMap<Schema, ValidateFunction>(), prune: new WeakMap<Schema, ValidateFunction>() };

function compile(schema: Schema, unknownFields: 'reject' | 'prune'): ValidateFunction {
  const cache = compiled[unknownFields];
  let fn = cache.get(schema);
  if (!fn) {
    const formats = new Set<string>();
    collectFormats(schema, formats);
    // Kubernetes ignores formats it does not know; so do we
    for (const f of formats) if (!ajv.formats[f]) ajv.addFormat(f, true);
    fn = ajv.compile(toJsonSchema(schema, unknownFields));
    cache.set(schema, fn);
  }
  return fn;
}

// ---- errors → issues

/** Turns a JSON pointer into path segments, numbers where the data at that point is an array. */
function toPath(pointer: string, data: unknown): SchemaPath {
  if (!pointer) return [];
  const path: SchemaPath = [];
  let cur: unknown = data;
  for (const raw of pointer.slice(1).split('/')) {
    const seg = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (Array.isArray(cur)) {
      const i = Number(seg);
      path.push(i);
      cur = cur[i];
    } else {
      path.push(seg);
      cur = cur && typeof cur === 'object' ? (cur as Record<string, unknown>)[seg] : undefined;
    }
  }
  return path;
}

const quoteList = (keys: readonly string[]): string => keys.map((k) => `"${k}"`).join(' and ');

/** A short noun phrase for one branch of a `oneOf`/`anyOf`. */
function describeBranch(b: Json): string {
  if (Array.isArray(b.required) && Object.keys(b).length === 1) return quoteList(b.required as string[]);
  if (typeof b.format === 'string' && Object.keys(b).length === 1) return formatNoun(b.format);
  if (b.maxLength === 0 && Object.keys(b).length === 1) return 'empty';
  for (const j of ['anyOf', 'oneOf'] as const) {
    if (Array.isArray(b[j]) && Object.keys(b).length === 1) return `(${(b[j] as Json[]).map(describeBranch).join(' or ')})`;
  }
  return 'the alternative schema';
}

function junctorMessage(e: ErrorObject): string {
  const branches = (e.parentSchema?.[e.keyword] ?? []) as Json[];
  const descs = branches.map(describeBranch);
  const fieldsOnly = branches.every((b) => 'required' in b || 'anyOf' in b);
  if (e.keyword === 'anyOf') return fieldsOnly ? `must set at least one of ${descs.join(', ')}` : `must be ${descs.join(' or ')}`;
  if (fieldsOnly) return `must set exactly one of ${descs.join(', ')}`;
  const passing = (e.params as { passingSchemas: number[] | null }).passingSchemas;
  return passing ? `matches more than one of: ${descs.join(', ')}` : `must be ${descs.join(' or ')}`;
}

function messageOf(e: ErrorObject): string {
  const p = e.params as Record<string, unknown>;
  switch (e.keyword) {
    case 'type': {
      const t = Array.isArray(p.type) ? (p.type as string[]).join(' or ') : String(p.type);
      return `must be ${/^[aeiou]/.test(t) ? 'an' : 'a'} ${t}`;
    }
    case 'required':
      return `missing required field "${String(p.missingProperty)}"`;
    case 'additionalProperties':
      return `unknown field "${String(p.additionalProperty)}"`;
    case 'enum':
      return `must be one of ${(p.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`;
    case 'pattern':
      return `must match the pattern ${String(p.pattern)}`;
    case 'format':
      return `must be ${formatNoun(String(p.format))}`;
    case 'minimum':
    case 'maximum':
    case 'exclusiveMinimum':
    case 'exclusiveMaximum':
      return `must be ${String(p.comparison)} ${String(p.limit)}`;
    case 'minLength':
      return p.limit === 1 ? 'must not be empty' : `must be at least ${String(p.limit)} characters long`;
    case 'maxLength':
      return p.limit === 0 ? 'must be empty' : `must be at most ${String(p.limit)} characters long`;
    case 'minItems':
      return `must have at least ${String(p.limit)} item${p.limit === 1 ? '' : 's'}`;
    case 'maxItems':
      return `must have at most ${String(p.limit)} item${p.limit === 1 ? '' : 's'}`;
    case 'minProperties':
      return `must set at least ${String(p.limit)} field${p.limit === 1 ? '' : 's'}`;
    case 'maxProperties':
      return `must set at most ${String(p.limit)} field${p.limit === 1 ? '' : 's'}`;
    case 'uniqueItems':
      return `must not repeat items (${String(p.j)} and ${String(p.i)} are equal)`;
    case 'oneOf':
    case 'anyOf':
      return junctorMessage(e);
    default:
      return e.message ?? 'is invalid';
  }
}

function toIssues(errors: readonly ErrorObject[], data: unknown): SchemaIssue[] {
  // a failed oneOf/anyOf says it all; the failures of its branches would only repeat it
  const junctors = errors.filter((e) => e.keyword === 'oneOf' || e.keyword === 'anyOf').map((e) => `${e.schemaPath}/`);
  const issues: SchemaIssue[] = [];
  const seen = new Set<string>();
  for (const e of errors) {
    if (e.keyword === 'if') continue; // the nullable wrapper; its `else` branch reports the cause
    if (junctors.some((j) => e.schemaPath.startsWith(j))) continue;
    const path = toPath(e.instancePath, data);
    // point at the offending field itself when it is present in the data
    if (e.keyword === 'additionalProperties') path.push(String(e.params.additionalProperty));
    const issue = { path, message: messageOf(e) };
    const key = JSON.stringify(issue);
    if (!seen.has(key)) {
      seen.add(key);
      issues.push(issue);
    }
  }
  return issues;
}

// ---- public API

/** The issues of `value` against `schema`; empty when valid. */
export function validateAgainst(schema: Schema, value: unknown, options: ValidateOptions = {}): SchemaIssue[] {
  const validate = compile(schema, options.unknownFields ?? 'reject');
  return validate(value) ? [] : toIssues(validate.errors ?? [], value);
}

/** Renders a data path the way kubectl does: `spec.ingress[0].action`. */
export const formatPath = (path: SchemaPath): string => path.map((s, i) => (typeof s === 'number' ? `[${s}]` : i === 0 ? s : `.${s}`)).join('');

const DNS_SUBDOMAIN = '^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$';
const DNS_LABEL = '^[a-z0-9]([-a-z0-9]*[a-z0-9])?$';
const LABEL_VALUE = '^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$';

/** The whole custom resource: apiVersion and kind pinned, the metadata fields we emit, then the version's schema. */
function resourceSchema(model: CrdModel, version: string): Schema {
  const v = model.versions.find((x) => x.name === version);
  if (!v) throw new Error(`${model.kind} has no version ${version} (has ${model.versions.map((x) => x.name).join(', ')})`);
  const { metadata: declaredMetadata, ...fields } = v.schema.properties ?? {};
  const metadata: Schema = {
    type: 'object',
    required: ['name'],
    properties: {
      name: { type: 'string', maxLength: 253, pattern: DNS_SUBDOMAIN },
      ...(model.scope === 'Namespaced' ? { namespace: { type: 'string', maxLength: 63, pattern: DNS_LABEL } } : {}),
      labels: { type: 'object', additionalProperties: { type: 'string', maxLength: 63, pattern: LABEL_VALUE } },
      annotations: { type: 'object', additionalProperties: { type: 'string' } },
    },
    // the API server owns the rest of ObjectMeta (uid, finalizers, ...); the version may narrow it further
    'x-kubernetes-preserve-unknown-fields': true,
    ...(declaredMetadata ? { allOf: [declaredMetadata] } : {}),
  };
  return {
    ...v.schema,
    type: 'object',
    required: [...new Set(['apiVersion', 'kind', 'metadata', ...(v.schema.required ?? [])])],
    properties: {
      apiVersion: { type: 'string', enum: [`${model.group}/${version}`] },
      kind: { type: 'string', enum: [model.kind] },
      metadata,
      ...fields,
    },
  };
}

const crdValidators = new WeakMap<CrdModel, Map<string, (o: unknown) => SchemaIssue[]>>();

/** A validator for whole custom resources of one served version of a modeled CRD. */
export function validatorForCrd(model: CrdModel, version: string, options: ValidateOptions = {}): (resource: unknown) => SchemaIssue[] {
  let byVersion = crdValidators.get(model);
  if (!byVersion) crdValidators.set(model, (byVersion = new Map<string, (o: unknown) => SchemaIssue[]>()));
  const key = `${version}/${options.unknownFields ?? 'reject'}`;
  let fn = byVersion.get(key);
  if (!fn) {
    const schema = resourceSchema(model, version);
    fn = (resource) => validateAgainst(schema, resource, options);
    byVersion.set(key, fn);
  }
  return fn;
}
