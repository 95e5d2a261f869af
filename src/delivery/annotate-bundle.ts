import type { KubeObject } from '../kube/kube-object';
import { ALL_ENGINES } from './registry';
import { guardContext, guardOf, withGuard, type Guard } from './prune-guards';

/**
 * Annotated copies by input object, one cache per guard decision: the annotations are a pure
 * function of the object and its guard, so a CRD shared by every bundle of a fleet is
 * annotated once and stays one value, which the layout stage serializes and checks once.
 */
const caches: Record<Guard | 'none', WeakMap<KubeObject, KubeObject>> = {
  full: new WeakMap(),
  partial: new WeakMap(),
  none: new WeakMap(),
};

/** Every engine's annotations (sync wave, prune guards, the substitution opt-out) on every object of one bundle; inputs are never mutated. */
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
  // every engine's marks, whichever delivers: the bundle is the same for each
  const marked = ALL_ENGINES.reduce<Record<string, string>>((a, e) => e.objects.annotate(a, o), { ...o.metadata.annotations });
  const annotations = guard ? withGuard(marked, guard) : marked;
  const out: KubeObject = { ...o, metadata: { ...o.metadata, annotations } };
  // shared inputs are frozen; so are their annotated copies
  if (Object.isFrozen(o)) {
    Object.freeze(annotations);
    Object.freeze(out.metadata);
    Object.freeze(out);
  }
  return out;
}
