/**
 * A match the evaluator may not be able to decide: `true`, `false`, or the reason it cannot know
 * (an FQDN, a ClusterGroup outside the definition, a Pod without a stated IP…).
 */
export type Tri = boolean | { readonly unknown: string };

export const isUnknown = (t: Tri): t is { readonly unknown: string } => typeof t === 'object';

/** Every part must match: false wins over unknown, unknown over true. */
export function all(parts: Iterable<Tri | (() => Tri)>): Tri {
  let unknown: Tri | undefined;
  for (const p of parts) {
    const t = typeof p === 'function' ? p() : p;
    if (t === false) return false;
    if (isUnknown(t)) unknown ??= t;
  }
  return unknown ?? true;
}

/** The opposite match; unknown stays unknown. */
export const not = (t: Tri): Tri => (isUnknown(t) ? t : !t);

/** One part must match: true wins over unknown, unknown over false. */
export function any(parts: Iterable<Tri | (() => Tri)>): Tri {
  let unknown: Tri | undefined;
  for (const p of parts) {
    const t = typeof p === 'function' ? p() : p;
    if (t === true) return true;
    if (isUnknown(t)) unknown ??= t;
  }
  return unknown ?? false;
}
