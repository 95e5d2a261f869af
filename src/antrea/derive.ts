import { crdName, type CrdModel } from './crd';
import type { AntreaRelease, ReleaseCrds, ReleaseFacts, ReleaseImages } from './release';
import type { Schema } from './schema';
import type { KubernetesRange } from '../kube/kubernetes-version';

/**
 * How one release differs from another it is expressed against: each field is a difference, so
 * a release folder says only what changed (a CRD added or removed, a schema field, a fact).
 */
export interface ReleaseChanges {
  readonly version: string;
  readonly images?: Partial<ReleaseImages>;
  /** per manifest: CRDs by name to drop, and models that replace (same name) or add */
  readonly crds?: { readonly [K in keyof ReleaseCrds]?: CrdChanges };
  readonly facts?: Partial<ReleaseFacts>;
  readonly featureGates?: { readonly agent?: NameChanges; readonly controller?: NameChanges };
  readonly clusterNetworkPolicySpec?: Schema;
  readonly kubernetes?: KubernetesRange;
}

export interface NameChanges {
  readonly add?: readonly string[];
  readonly remove?: readonly string[];
}

const changeNames = (names: readonly string[], c: NameChanges = {}): readonly string[] => [
  ...names.filter((n) => !c.remove?.includes(n)),
  ...(c.add ?? []).filter((n) => !names.includes(n)),
];

export interface CrdChanges {
  readonly remove?: readonly string[];
  readonly put?: readonly CrdModel[];
}

function changeCrds(models: readonly CrdModel[], changes: CrdChanges = {}): readonly CrdModel[] {
  if (!changes.remove?.length && !changes.put?.length) return models;
  const put = new Map((changes.put ?? []).map((m) => [crdName(m), m]));
  const kept = models.filter((m) => !changes.remove?.includes(crdName(m))).map((m) => put.get(crdName(m)) ?? m);
  const added = [...put.values()].filter((m) => !models.some((x) => crdName(x) === crdName(m)));
  // sorted by CRD name, as the manifests list them
  return [...kept, ...added].sort((a, b) => (crdName(a) < crdName(b) ? -1 : crdName(a) > crdName(b) ? 1 : 0));
}

/**
 * A release from `base` and its changes. A model replaced in one manifest is replaced in every
 * manifest that shares it (ClusterSet is both a leader and a member CRD), keeping identity shared.
 */
export function deriveRelease(base: AntreaRelease, changes: ReleaseChanges): AntreaRelease {
  const c = changes.crds ?? {};
  const puts = [c.core, c.leader, c.member].flatMap((x) => x?.put ?? []);
  const shared = (kind: keyof ReleaseCrds): CrdChanges => {
    const own = c[kind] ?? {};
    const elsewhere = puts.filter((m) => base.crds[kind].some((x) => crdName(x) === crdName(m)) && !own.put?.includes(m));
    return { ...own, put: [...(own.put ?? []), ...elsewhere] };
  };
  return {
    version: changes.version,
    images: { ...base.images, ...changes.images },
    crds: {
      core: changeCrds(base.crds.core, shared('core')),
      leader: changeCrds(base.crds.leader, shared('leader')),
      member: changeCrds(base.crds.member, shared('member')),
    },
    facts: { ...base.facts, ...changes.facts },
    featureGates: {
      agent: changeNames(base.featureGates.agent, changes.featureGates?.agent),
      controller: changeNames(base.featureGates.controller, changes.featureGates?.controller),
    },
    clusterNetworkPolicySpec: changes.clusterNetworkPolicySpec ?? base.clusterNetworkPolicySpec,
    kubernetes: changes.kubernetes ?? base.kubernetes,
  };
}

/** A path into a schema by property names; `[]` steps into array items, `*` into additionalProperties. */
export type SchemaPath = readonly string[];

/**
 * A copy of `schema` with the subschema at `path` replaced by `edit(old)`; `undefined` removes the
 * property (and its `required` entry). Throws on a path that does not exist: a release difference
 * that no longer applies is a bug in the release data.
 */
export function editSchema(schema: Schema, path: SchemaPath, edit: (old: Schema) => Schema | undefined): Schema {
  if (!path.length) throw new Error('editSchema: empty path');
  const [step, ...rest] = path as [string, ...string[]];
  const child = (s: Schema | undefined) => {
    if (!s) throw new Error(`editSchema: no ${step} in path ${path.join('.')}`);
    return rest.length ? editSchema(s, rest, edit) : edit(s);
  };
  if (step === '[]') return { ...schema, items: child(schema.items)! };
  if (step === '*') {
    const ap = schema.additionalProperties;
    return { ...schema, additionalProperties: child(typeof ap === 'object' ? ap : undefined)! };
  }
  const next = child(schema.properties?.[step]);
  if (next === undefined) {
    const properties = Object.fromEntries(Object.entries(schema.properties ?? {}).filter(([k]) => k !== step));
    const required = schema.required?.filter((k) => k !== step);
    return { ...schema, properties, ...(required ? { required } : {}) };
  }
  return { ...schema, properties: { ...schema.properties, [step]: next } };
}

/** A copy of a CRD model with one version's schema edited (see `editSchema`); other fields may be overridden. */
export function editCrd(
  model: CrdModel,
  edits: readonly { readonly version: string; readonly path: SchemaPath; readonly edit: (old: Schema) => Schema | undefined }[],
  fields: Partial<CrdModel> = {},
): CrdModel {
  const versions = model.versions.map((v) => {
    const mine = edits.filter((e) => e.version === v.name);
    return mine.length ? { ...v, schema: mine.reduce((s, e) => editSchema(s, e.path, e.edit), v.schema) } : v;
  });
  for (const e of edits) if (!model.versions.some((v) => v.name === e.version)) throw new Error(`editCrd: ${model.kind} has no version ${e.version}`);
  return { ...model, ...fields, versions };
}

/** The edit that removes a property. */
export const remove = (): undefined => undefined;
