/** A copy of an object without some keys (a test's "the same, minus this field"). */
export function without<T extends object, K extends keyof T>(object: T, ...keys: K[]): Omit<T, K> {
  const copy: Partial<T> = { ...object };
  for (const k of keys) delete copy[k];
  return copy as Omit<T, K>;
}
