import { createRequire } from 'node:module';
import { crdModelFor, type AntreaRelease } from '../antrea/release';
import { formatPath, validateAgainst, validatorForCrd } from '../antrea/validator';
import { ALL_ENGINES } from '../delivery/registry';
import type { KubeObject } from '../kube/kube-object';
import { SEALED_SECRET_API_VERSION, sealedSecretSchema } from './sealed-secret-schema';

const require = createRequire(import.meta.url);

/** A schema check: the problems found, each with the data path inside the object. */
export type ObjectValidator = (o: KubeObject) => { path: string; message: string }[];

/** Packages with ajv-compiled schemas, by API group (the core group is ''): each engine's (`EngineApi.schemas`), then the others. */
const PACKAGES: [test: (group: string) => boolean, pkg: string][] = [
  ...ALL_ENGINES.map((e): [(group: string) => boolean, string] => [e.api.schemas.group, e.api.schemas.package]),
  [(g) => g === 'external-secrets.io', '@kubernetes-models/external-secrets'],
  [(g) => g === '' || g.endsWith('.k8s.io') || ['apps', 'batch', 'autoscaling', 'policy'].includes(g), 'kubernetes-models'],
];

const cache = new Map<string, ObjectValidator | undefined>();
const extra = new Map<string, ObjectValidator>();

/** Custom resources we model ourselves (Antrea CRDs) register their validators here. */
export function registerValidator(apiVersion: string, kind: string, validate: ObjectValidator): void {
  extra.set(`${apiVersion}/${kind}`, validate);
}

/**
 * The validator for an object's apiVersion and kind, or undefined when no schema is known.
 * Antrea's custom resources are checked against the given release's CRD models.
 */
export function validatorFor(apiVersion: string, kind: string, release?: AntreaRelease): ObjectValidator | undefined {
  const key = `${apiVersion}/${kind}`;
  const registered = extra.get(key);
  if (registered) return registered;
  // Antrea's custom resources: the same schema model that gives the CRD, per release
  const model = release && crdModelFor(release, apiVersion, kind);
  const cacheKey = model ? `${release.version}:${key}` : key;
  if (cache.has(cacheKey)) return cache.get(cacheKey);
  const [group = '', version = ''] = apiVersion.includes('/') ? apiVersion.split('/') : ['', apiVersion];
  if (model && model.versions.some((v) => v.name === version)) {
    const validate = validatorForCrd(model, version);
    const validator: ObjectValidator = (o) => validate(o).map((i) => ({ path: formatPath(i.path), message: i.message }));
    cache.set(cacheKey, validator);
    return validator;
  }
  const pkg = PACKAGES.find(([test]) => test(group))?.[1];
  let validator: ObjectValidator | undefined;
  if (pkg) {
    const modulePath = `${pkg}/${group ? `${group}/` : ''}${version}/${kind}`;
    try {
      const mod = require(modulePath) as Record<string, new (data: unknown) => { validate(): void }>;
      const Model = mod[kind];
      // the model's check run on the object itself: its constructor would first copy the object
      // deeply to drop undefined values, which the JSON objects we emit do not have (a tenth of a
      // fleet's checking went to that copy)
      const proto = Model?.prototype as { validate(): void } | undefined;
      if (proto) validator = (o) => modelErrors(() => proto.validate.call(o));
    } catch {
      validator = undefined;
    }
  }
  cache.set(key, validator);
  return validator;
}

function modelErrors(run: () => void): { path: string; message: string }[] {
  try {
    run();
    return [];
  } catch (err) {
    const errors = (err as { errors?: { instancePath?: string; message?: string; params?: unknown }[] }).errors;
    if (Array.isArray(errors) && errors.length) {
      return errors.map((e) => ({ path: e.instancePath ?? '', message: `${e.message ?? 'invalid'}${e.params ? ` ${JSON.stringify(e.params)}` : ''}` }));
    }
    return [{ path: '', message: err instanceof Error ? err.message : String(err) }];
  }
}

// ---- kinds without a schema package

registerValidator(SEALED_SECRET_API_VERSION, 'SealedSecret', (o) =>
  validateAgainst(sealedSecretSchema, o).map((i) => ({ path: formatPath(i.path), message: i.message })),
);

// External Secrets serves only v1 since v0.17; the package models up to v1beta1, whose
// ExternalSecret schema v1 kept unchanged.
registerValidator('external-secrets.io/v1', 'ExternalSecret', (o) =>
  validatorFor('external-secrets.io/v1beta1', 'ExternalSecret')!({ ...o, apiVersion: 'external-secrets.io/v1beta1' }),
);
