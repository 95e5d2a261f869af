import type { KubeObject } from '../../kube/kube-object';
import { guardContext, guardOf, withGuard, type Guard } from './prune-guards';
import { ARGOCD_SYNC_WAVE, syncWaveOf } from './sync-waves';

/**
 * Flux's post-build substitution (fluxcd/pkg kustomize/kustomize_varsub.go, its envsubst) blanks `${var}`
 * and turns `$$` into `$` in objects when a Kustomization sets postBuild; ours never do, users' might.
 */
export const FLUX_SUBSTITUTE = 'kustomize.toolkit.fluxcd.io/substitute';

/**
 * Annotated copies by input object, one cache per guard decision: the annotations are a pure
 * function of the object and its guard, so a CRD shared by every bundle of a fleet is
 * annotated once and stays one value, which emit serializes and checks once.
 */
const caches: Record<Guard | 'none', WeakMap<KubeObject, KubeObject>> = {
  full: new WeakMap(),
  partial: new WeakMap(),
  none: new WeakMap(),
};

/** Sync wave, prune guards and the substitution opt-out on every object of one bundle; inputs are never mutated. */
export function annotateBundle(objects: readonly KubeObject[]): KubeObject[] {
  const ctx = guardContext(objects);
  return objects.map((o) => {
    const guard = guardOf(o, ctx);
    const cache = caches[guard ?? 'none'];
    let out = cache.get(o);
    if (!out) {
      out = annotate(o, guard);
      cache.set(o, out);
    }
    return out;
  });
}

function annotate(o: KubeObject, guard: Guard | undefined): KubeObject {
  let annotations: Record<string, string> = { ...o.metadata.annotations, [ARGOCD_SYNC_WAVE]: syncWaveOf(o) };
  if (guard) annotations = withGuard(annotations, guard);
  if (/\$[{$]/.test(JSON.stringify(o))) annotations[FLUX_SUBSTITUTE] = 'disabled';
  const out: KubeObject = { ...o, metadata: { ...o.metadata, annotations } };
  // shared inputs are frozen; so are their annotated copies
  if (Object.isFrozen(o)) {
    Object.freeze(annotations);
    Object.freeze(out.metadata);
    Object.freeze(out);
  }
  return out;
}
