/**
 * Structural diff of two plain JSON-like values, reported as paths such as
 * `spec.versions[0].schema.openAPIV3Schema.properties.spec.required`.
 * Used by conformance tests so a failure names what differs instead of dumping two documents.
 */

export interface Difference {
  readonly path: string;
  readonly ours: unknown;
  readonly theirs: unknown;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

const keyPath = (base: string, key: string): string => (/^[A-Za-z_$][\w$-]*$/.test(key) ? (base ? `${base}.${key}` : key) : `${base}[${JSON.stringify(key)}]`);

export function diffPaths(ours: unknown, theirs: unknown, path = ''): Difference[] {
  if (Array.isArray(ours) && Array.isArray(theirs)) {
    const out: Difference[] = [];
    for (let i = 0; i < Math.max(ours.length, theirs.length); i++) {
      if (i >= ours.length) out.push({ path: `${path}[${i}]`, ours: undefined, theirs: theirs[i] });
      else if (i >= theirs.length) out.push({ path: `${path}[${i}]`, ours: ours[i], theirs: undefined });
      else out.push(...diffPaths(ours[i], theirs[i], `${path}[${i}]`));
    }
    return out;
  }
  if (isObject(ours) && isObject(theirs)) {
    const keys = [...new Set([...Object.keys(ours), ...Object.keys(theirs)])].sort();
    // a key holding `undefined` is absent once serialized
    return keys.flatMap((k) => diffPaths(ours[k], theirs[k], keyPath(path, k)));
  }
  return Object.is(ours, theirs) ? [] : [{ path: path || '(root)', ours, theirs }];
}

const show = (v: unknown): string => (v === undefined ? '(absent)' : JSON.stringify(v)).slice(0, 200);

/** One line per difference, capped so a wholly different document stays readable. */
export function formatDifferences(diffs: readonly Difference[], max = 40): string {
  const lines = diffs.slice(0, max).map((d) => `  ${d.path}: ours ${show(d.ours)}, upstream ${show(d.theirs)}`);
  if (diffs.length > max) lines.push(`  … and ${diffs.length - max} more`);
  return lines.join('\n');
}
