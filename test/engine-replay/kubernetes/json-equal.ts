// Equality of the store's values: the engines' applies share their parsed objects (server-side-apply.ts
// `shared`), so most comparisons meet the same value and need not write it out as JSON.

/** JSON-equal; at once when the values are the same (the store shares applied values), else written out. */
export const jsonEqual = (a: unknown, b: unknown): boolean => same(a, b) || JSON.stringify(a) === JSON.stringify(b);

/** The same value: the same keys in the same order (an undefined one too), the same leaves (JSON-equal, and more). */
export function same(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return false;
  // plain objects and arrays only (a parsed YAML 1.1 timestamp is a Date: no keys, yet not the same)
  const proto = Object.getPrototypeOf(a) as unknown;
  if (proto !== Object.getPrototypeOf(b) || (proto !== Object.prototype && proto !== Array.prototype && proto !== null)) return false;
  if (Array.isArray(a) && a.length !== (b as unknown[]).length) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  for (let i = 0; i < ka.length; i++) {
    const k = ka[i]!;
    if (k !== kb[i] || !same((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k])) return false;
  }
  return true;
}
