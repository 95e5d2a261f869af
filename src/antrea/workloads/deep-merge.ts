/** A map in the JSON sense: not null, not an array. */
export const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

// keys that would reach Object.prototype through assignment; the loader rejects them too
const UNSAFE_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/**
 * Deep-merges `override` into `base` and returns a new value; neither input is mutated.
 * Maps merge key by key; anything else in `override` (scalars, arrays, null) replaces the base value;
 * `undefined` keeps the base value. A map merged into a non-map (e.g. a `null` section) replaces it.
 */
export function deepMerge<T>(base: T, override: unknown): T {
  if (override === undefined) return clone(base);
  if (!isPlainObject(base) || !isPlainObject(override)) return clone(override) as T;
  const out: Record<string, unknown> = clone(base);
  for (const [key, value] of Object.entries(override)) {
    if (UNSAFE_KEYS.has(key) || value === undefined) continue;
    out[key] = key in out ? deepMerge(out[key], value) : clone(value);
  }
  return out as T;
}

/** Merges several layers left to right: later layers win. */
export const mergeLayers = <T>(base: T, ...layers: readonly unknown[]): T => layers.reduce<T>((acc, layer) => deepMerge(acc, layer), base);

function clone<T>(v: T): T {
  if (Array.isArray(v)) return v.map(clone) as T;
  if (isPlainObject(v)) {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) if (!UNSAFE_KEYS.has(k) && x !== undefined) out[k] = clone(x);
    return out as T;
  }
  return v;
}
