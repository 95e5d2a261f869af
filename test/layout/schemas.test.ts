import { describe, expect, test } from 'vitest';
import { validatorFor } from '../../src/layout/schemas';

// The schema checks every emitted object passes before it is written (check-output.ts): built-in
// kinds through kubernetes-models, engine kinds through @kubernetes-models packages.
const deployment = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'd' }, spec: { selector: {}, template: {} } };

describe('validatorFor', () => {
  test.each([
    { name: 'a Deployment with a string replica count', object: { ...deployment, spec: { ...deployment.spec, replicas: 'two' } }, path: '/spec/replicas' },
    { name: 'a ConfigMap with a number as data', object: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' }, data: { k: 1 } }, path: '/data/k' },
    {
      name: 'a Flux Kustomization without its source',
      object: { apiVersion: 'kustomize.toolkit.fluxcd.io/v1', kind: 'Kustomization', metadata: { name: 'k' }, spec: { interval: '10m', prune: true } },
      path: '/spec',
    },
  ])('$name is reported at its path', ({ object, path }) => {
    const problems = validatorFor(object.apiVersion, object.kind)!(object);
    expect(problems.map((p) => p.path)).toContain(path);
  });

  test('a valid object passes, frozen as shared objects are, and is left as it was', () => {
    const freeze = <T extends object>(o: T): T => {
      for (const v of Object.values(o)) if (typeof v === 'object' && v !== null) freeze(v as object);
      return Object.freeze(o);
    };
    const frozen = freeze(structuredClone(deployment));
    expect(validatorFor('apps/v1', 'Deployment')!(frozen)).toEqual([]);
    expect(frozen).toEqual(deployment);
  });

  test('a kind no schema knows has no validator', () => {
    expect(validatorFor('example.com/v1', 'Unknown')).toBeUndefined();
  });
});
