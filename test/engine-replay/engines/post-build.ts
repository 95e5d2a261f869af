import { parse, stringify } from 'yaml';
import type { ApiServer } from '../kubernetes/api-server';
import { substituteStrategyAlways, strictSubstitution, type FluxVersion } from './engine-versions';
import { annotation, type Obj } from '../kubernetes/kube';

const SUBSTITUTE = 'kustomize.toolkit.fluxcd.io/substitute';

/** A Kustomization's `spec.postBuild` as kustomize-controller reads it. */
export interface PostBuild {
  readonly substitute?: Readonly<Record<string, string>>;
  readonly substituteFrom?: readonly { readonly kind: 'ConfigMap' | 'Secret'; readonly name: string; readonly optional?: boolean }[];
  readonly substituteStrategy?: 'WithVariables' | 'Always';
}

/**
 * Post-build substitution of one Kustomization's built objects (kustomize-controller
 * internal/controller/kustomization_controller.go build → fluxcd/pkg kustomize/kustomize_varsub.go
 * SubstituteVariables, at kustomize/v1.35.0 for Flux 2.9 and v1.27.0 for 2.8): an object whose
 * label or annotation `kustomize.toolkit.fluxcd.io/substitute` is `disabled` is left as it is,
 * before anything else; the vars are `substituteFrom`'s ConfigMaps and Secrets of the
 * Kustomization's Namespace in the cluster Flux runs in (LoadVariables), then `substitute`; with
 * no vars nothing is substituted unless `substituteStrategy: Always` (from 2.9); otherwise the
 * object's YAML goes through envsubst, strict from 2.9 (engine-versions.ts strictSubstitution).
 * Returns the objects, or the error the Kustomization's Ready condition shows.
 */
export function postBuild(objects: readonly Obj[], spec: PostBuild, namespace: string, home: ApiServer, version: FluxVersion): Obj[] | string {
  const vars = new Map<string, string>();
  for (const ref of spec.substituteFrom ?? []) {
    const o = home.get('v1', ref.kind, namespace, ref.name);
    if (!o) {
      if (ref.optional) continue;
      return `substitute from '${ref.kind}/${ref.name}' error: ${ref.kind.toLowerCase()}s "${ref.name}" not found`;
    }
    for (const [k, v] of Object.entries((o.data ?? {}) as Record<string, string>)) vars.set(k, (ref.kind === 'Secret' ? atob(v) : v).replaceAll('\n', ''));
  }
  for (const [k, v] of Object.entries(spec.substitute ?? {})) vars.set(k, v.replaceAll('\n', ''));
  const always = substituteStrategyAlways(version) && spec.substituteStrategy === 'Always';
  const out: Obj[] = [];
  for (const o of objects) {
    if (o.metadata.labels?.[SUBSTITUTE] === 'disabled' || annotation(o, SUBSTITUTE) === 'disabled' || (vars.size === 0 && !always)) {
      out.push(o);
      continue;
    }
    try {
      out.push(parseOnce(envsubst(yamlOf(o), vars, strictSubstitution(version))));
    } catch (e) {
      return `post build failed for '${o.apiVersion}, Kind=${o.kind}/${o.metadata.name}': envsubst error: variable substitution failed: ${(e as Error).message}`;
    }
  }
  return out;
}

/**
 * An object's YAML and a substituted text's objects, once each for the run: a Kustomization builds
 * the same objects with the same vars at every reconcile, and neither is ever mutated (the objects
 * come from the revision, and the API server model stores copies: revision.ts parseShared).
 */
const yamlTexts = new WeakMap<Obj, string>();
function yamlOf(o: Obj): string {
  let text = yamlTexts.get(o);
  if (text === undefined) yamlTexts.set(o, (text = stringify(o, { lineWidth: 0 })));
  return text;
}
const substituted = new Map<string, Obj>();
function parseOnce(text: string): Obj {
  let o = substituted.get(text);
  if (o === undefined) substituted.set(text, (o = parse(text) as Obj));
  return o;
}

const NAME = /^[_A-Za-z][_A-Za-z0-9]*/;
const DEFAULT_OPS = ['-', '+', '=', '?', ':-', ':+', ':=', ':?'];

/**
 * fluxcd/pkg envsubst (a fork of drone/envsubst; parse/scan.go, template.go evalFunc): `$$` is a
 * `$`, `${name…}` is a substitution and any other `$` is text (no bare `$name`). A variable its
 * vars lack is an error in strict mode unless its operator supplies a default (isDefaultOp), and
 * the empty string otherwise. Modelled: `${v}`, the default operators (toDefault: an empty value
 * takes the default), `${#v}`, and any other operator on an empty value (each gives ''); another
 * operator on a value is not modelled and says so.
 */
export function envsubst(text: string, vars: ReadonlyMap<string, string>, strict: boolean): string {
  let out = '';
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    if (c === '$' && text[i + 1] === '$') {
      out += '$';
      i += 2;
    } else if (c === '$' && text[i + 1] === '{') {
      let depth = 1;
      let j = i + 2;
      for (; j < text.length && depth > 0; j++) {
        if (text[j] === '$' && text[j + 1] === '{') {
          depth++;
          j++;
        } else if (text[j] === '}') depth--;
      }
      if (depth > 0) throw new Error('missing closing brace');
      out += evalFunc(text.slice(i + 2, j - 1), vars, strict);
      i = j;
    } else {
      out += c;
      i++;
    }
  }
  return out;
}

function evalFunc(body: string, vars: ReadonlyMap<string, string>, strict: boolean): string {
  const length = body.startsWith('#');
  const name = NAME.exec(length ? body.slice(1) : body)?.[0];
  if (!name) throw new Error('unable to parse variable name');
  const rest = body.slice(name.length + (length ? 1 : 0));
  const op = length ? '#' : (DEFAULT_OPS.filter((o) => rest.startsWith(o)).sort((a, b) => b.length - a.length)[0] ?? rest);
  const set = vars.has(name);
  if (!set && strict && !DEFAULT_OPS.includes(op)) throw new Error(`variable not set (strict mode): ${JSON.stringify(name)}`);
  const value = vars.get(name) ?? '';
  if (length) return String(value.length);
  if (rest === '') return value;
  if (DEFAULT_OPS.includes(op)) return value === '' ? envsubst(rest.slice(op.length), vars, strict) : value;
  if (value === '') return '';
  throw new Error(`the replay does not model the envsubst operator of \${${body}}`);
}
