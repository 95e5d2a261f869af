import { describe, expect, test } from 'vitest';
import { crdObject, crdsFor } from '../../src/antrea/release';
import { LATEST_RELEASE } from '../../src/antrea/releases';
import { annotateForDelivery } from '../../src/delivery';
import { withGuard } from '../../src/delivery/prune-guards';
import { ARGOCD_SYNC_OPTIONS } from '../../src/delivery/argocd/guards';
import { FLUX_PRUNE } from '../../src/delivery/flux/guards';
import type { KubeObject } from '../../src/kube/kube-object';
import { envsubst } from '../engine-replay/engines/post-build';

const crd = crdObject(crdsFor(LATEST_RELEASE, { leader: false, member: true })[0]!);
const configMap = (): KubeObject => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'antrea-config', namespace: 'kube-system' } });

describe('shared objects', () => {
  test('the same CRD value in two bundles yields the same annotated value', () => {
    const [a] = annotateForDelivery([crd, configMap()]);
    const [, b] = annotateForDelivery([configMap(), crd]);
    expect(b).toBe(a);
    expect(a).not.toBe(crd);
  });

  test('the annotated copy of a frozen input is frozen; the input is untouched', () => {
    const before = JSON.stringify(crd);
    const [a] = annotateForDelivery([crd]);
    expect(JSON.stringify(crd)).toBe(before);
    expect(Object.isFrozen(a)).toBe(true);
    expect(Object.isFrozen(a!.metadata)).toBe(true);
    expect((a!.metadata.annotations as Record<string, string>)[FLUX_PRUNE]).toBe('disabled');
  });

  test('per-bundle objects are copied, never mutated', () => {
    const input = configMap();
    const [out] = annotateForDelivery([input]);
    expect(input.metadata.annotations).toBeUndefined();
    expect(out!.metadata.annotations).toEqual({ 'argocd.argoproj.io/sync-wave': '1' });
  });

  test('annotating an annotated bundle again changes nothing', () => {
    const once = annotateForDelivery([crd, configMap()]);
    const twice = annotateForDelivery(once);
    expect(twice).toEqual(once);
  });
});

describe('guard merging is idempotent', () => {
  test.each([
    // [existing sync-options, guard, expected sync-options]
    [undefined, 'full', 'Prune=false,Delete=false'],
    ['Prune=false,Delete=false', 'full', 'Prune=false,Delete=false'],
    ['Prune=false,Delete=false,ServerSideApply=true', 'partial', 'Prune=false,Delete=false,ServerSideApply=true'],
    ['ServerSideApply=true,Prune=false', 'partial', 'ServerSideApply=true,Prune=false,Delete=false'],
    // a guard wins over a contrary option of its own key
    ['Prune=true,Replace=true', 'full', 'Prune=false,Replace=true,Delete=false'],
  ] as const)('%s + %s', (existing, guard, expected) => {
    const annotations: Record<string, string> = existing === undefined ? {} : { [ARGOCD_SYNC_OPTIONS]: existing };
    const once = withGuard(annotations, guard);
    expect(once[ARGOCD_SYNC_OPTIONS]).toBe(expected);
    expect(once[FLUX_PRUNE]).toBe('disabled');
    expect(withGuard(once, guard)).toEqual(once);
  });
});

test('objects with ${...} opt out of Flux substitution', () => {
  const script: KubeObject = { ...configMap(), data: { 'run.sh': 'echo ${NODE_NAME}' } };
  const [out] = annotateForDelivery([script, configMap()]);
  expect((out!.metadata.annotations as Record<string, string>)['kustomize.toolkit.fluxcd.io/substitute']).toBe('disabled');
  expect(annotateForDelivery([configMap()])[0]!.metadata.annotations).not.toHaveProperty('kustomize.toolkit.fluxcd.io/substitute');
});

// Flux's envsubst (fluxcd/pkg, modelled in the replay's post-build.ts) changes `${…}` and `$$`, whatever
// a user's postBuild sets: every object whose text it would change carries the opt-out, so a wrapper
// Kustomization never rewrites a script or configuration of ours
test.each(['echo ${NODE_NAME}', 'price: $$5', 'a $HOME and a lone $ stay', '${x:=default}'])('%s: opted out wherever substitution would change it', (text) => {
  const [out] = annotateForDelivery([{ ...configMap(), data: { v: text } }]);
  const changed = envsubst(JSON.stringify(out!.data), new Map([['x', 'y']]), false) !== JSON.stringify(out!.data);
  expect((out!.metadata.annotations as Record<string, string>)['kustomize.toolkit.fluxcd.io/substitute'], text).toBe(changed ? 'disabled' : undefined);
});
