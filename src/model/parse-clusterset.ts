import type { z } from 'zod';
import { dataPathText, type DataPath, type Diagnostic } from '../diagnostics/diagnostic';
import type { SourceFile } from '../load/source-file';
import { API_VERSION, ClusterSetSchema, KIND, type ClusterSet } from './clusterset';
import { didYouMean } from './did-you-mean';
import { UNSET } from './unset';

/** A definition that passed the schema, with the source it came from. */
export interface ParsedClusterSet {
  readonly source: SourceFile;
  readonly definition: ClusterSet;
}

/** Shape, enums and defaults; every zod issue becomes a `schema` diagnostic at its value. */
export function parseClusterSet(source: SourceFile, diagnostics: Diagnostic[]): ParsedClusterSet | undefined {
  const foreign = notADefinition(source);
  if (foreign) {
    diagnostics.push(foreign);
    return undefined;
  }
  const result = ClusterSetSchema.safeParse(source.data);
  if (result.success) return { source, definition: result.data };
  for (const issue of result.error.issues) diagnostics.push(...issueToDiagnostics(source, issue));
  return undefined;
}

/**
 * An object of another API saved among the definitions (Antrea's own ClusterSet, a cluster dump,
 * any Kubernetes manifest): one error that says what the file is, instead of the schema's errors
 * and "did you mean" hints toward a definition it never was. A definition with a mistyped
 * apiVersion or kind of ours is still a definition, and gets the schema's errors.
 */
function notADefinition(source: SourceFile): Diagnostic | undefined {
  const data = source.data;
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return undefined;
  const { apiVersion, kind, spec } = data as Record<string, unknown>;
  // a tool's configuration beside the definitions (a tsconfig.json, a package.json)
  if (apiVersion === undefined && kind === undefined && spec === undefined)
    return {
      code: 'schema',
      severity: 'error',
      message: 'the file holds no ClusterSet definition: it has no apiVersion, kind or spec',
      file: source.file,
      path: [],
      ...source.locate([]),
      hint: `a definition is apiVersion ${API_VERSION}, kind ${KIND} (docs/definition-format.md); keep other files out of the definitions folder`,
    };
  if (typeof apiVersion !== 'string' || typeof kind !== 'string' || kind === KIND) return undefined;
  const group = apiVersion.includes('/') ? apiVersion.slice(0, apiVersion.indexOf('/')) : '';
  if (group === API_VERSION.slice(0, API_VERSION.indexOf('/'))) return undefined;
  const antrea = group.endsWith('antrea.io');
  const running = (antrea && kind === 'ClusterSet') || kind === 'List';
  return {
    code: 'schema',
    severity: 'error',
    message: `the file holds ${antrea ? 'an Antrea' : 'a Kubernetes'} ${kind} object (${apiVersion}), not a ClusterSet definition (${API_VERSION}, kind ${KIND})`,
    file: source.file,
    path: ['kind'],
    ...source.locate(['kind']),
    hint: running
      ? 'to adopt the ClusterSet that runs, give dumps of its clusters to `clusterset import`, which writes its definition (docs/adopt.md); keep only definitions in this folder'
      : `a definition is apiVersion ${API_VERSION}, kind ${KIND} (docs/definition-format.md); keep other manifests out of this folder`,
  };
}

function issueToDiagnostics(source: SourceFile, issue: z.core.$ZodIssue): Diagnostic[] {
  const path = issue.path.map((p) => (typeof p === 'symbol' ? String(p) : p)) as DataPath;
  // what `clusterset import` could not know: unset-value names it, in its own words, once
  if (valueAt(source.data, path) === UNSET) return [];
  const at = (p: DataPath, message: string, hint?: string, key = false): Diagnostic => ({
    code: 'schema',
    severity: 'error',
    message,
    file: source.file,
    path: p,
    ...source.locate(p, { key }),
    ...(hint ? { hint } : {}),
  });

  if (issue.code === 'unrecognized_keys') {
    const known = knownKeys(path);
    return issue.keys.map((key) => {
      const suggestion = didYouMean(key, known);
      return at(
        [...path, key],
        `unknown key "${key}" in ${describePath(path)}`,
        suggestion ? `did you mean "${suggestion}"?` : known.length ? `known keys: ${known.join(', ')}` : undefined,
        true,
      );
    });
  }
  const value = valueAt(source.data, path);
  if (issue.code === 'invalid_type' && value === undefined) {
    const last = path[path.length - 1];
    return [at(path, `missing required field "${String(last)}" in ${describePath(path.slice(0, -1))}`)];
  }
  // an enum value, or the discriminator of a union (tokenSecret.source): name the valid ones
  const options =
    issue.code === 'invalid_value'
      ? issue.values.map(String)
      : issue.code === 'invalid_union' && 'options' in issue
        ? (issue.options as unknown[]).map(String)
        : undefined;
  if (options) {
    const suggestion = typeof value === 'string' ? didYouMean(value, options) : undefined;
    const list = options.map((o) => `"${o}"`).join(', ');
    return [
      at(
        path,
        `invalid value ${JSON.stringify(value)}: expected ${options.length > 1 ? `one of ${list}` : list}`,
        suggestion ? `did you mean "${suggestion}"?` : undefined,
      ),
    ];
  }
  return [at(path, lowerFirst(issue.message.replace(/^Invalid input: /, '')), typeHint(issue, path, value))];
}

/**
 * Where the intent is clear from the value: a Gateway written as its Node name, a release
 * written as a number (`version: 2.7` is a float in YAML).
 */
function typeHint(issue: z.core.$ZodIssue, path: DataPath, value: unknown): string | undefined {
  if (issue.code !== 'invalid_type') return undefined;
  if (issue.expected === 'object' && (typeof value === 'string' || typeof value === 'number')) {
    const keys = knownKeys(path);
    if (keys.includes('node')) return `a Gateway is an object: write { node: ${String(value)} }`;
    if (keys.includes('name')) return `write an object: { name: ${String(value)}, … }`;
  }
  const last = path[path.length - 1];
  if (issue.expected === 'string' && typeof value === 'number' && (last === 'version' || last === 'upgradeFrom'))
    return `an Antrea release is a string with a leading v, such as "v${String(value)}${Number.isInteger(value) ? '.0' : ''}.x": write it as the release tag`;
  return undefined;
}

/** Known keys of the object schema at a data path, for "did you mean". */
function knownKeys(path: DataPath): string[] {
  let schemas: z.core.$ZodType[] = [ClusterSetSchema];
  for (const segment of [...path, undefined]) {
    const next: z.core.$ZodType[] = [];
    const expand = (s: z.core.$ZodType): z.core.$ZodType[] => {
      const def = s._zod.def as unknown as Record<string, unknown> & { type: string };
      if (def.type === 'optional' || def.type === 'default' || def.type === 'nullable' || def.type === 'prefault')
        return expand(def.innerType as z.core.$ZodType);
      if (def.type === 'union') return (def.options as z.core.$ZodType[]).flatMap(expand);
      if (def.type === 'pipe') return expand(def.in as z.core.$ZodType);
      return [s];
    };
    const expanded = schemas.flatMap(expand);
    if (segment === undefined) {
      return [...new Set(expanded.flatMap((s) => (s._zod.def.type === 'object' ? Object.keys((s._zod.def as unknown as { shape: object }).shape) : [])))];
    }
    for (const s of expanded) {
      const def = s._zod.def as unknown as Record<string, unknown> & { type: string };
      if (def.type === 'object' && typeof segment === 'string') {
        const child = (def.shape as Record<string, z.core.$ZodType>)[segment];
        if (child) next.push(child);
      } else if (def.type === 'array' && typeof segment === 'number') {
        next.push(def.element as z.core.$ZodType);
      } else if (def.type === 'record') {
        next.push(def.valueType as z.core.$ZodType);
      }
    }
    schemas = next;
  }
  return [];
}

export function valueAt(data: unknown, path: DataPath): unknown {
  let v = data;
  for (const p of path) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<string | number, unknown>)[p];
  }
  return v;
}

const describePath = (path: DataPath): string => dataPathText(path) || 'the definition';

const lowerFirst = (s: string) => s.charAt(0).toLowerCase() + s.slice(1);
