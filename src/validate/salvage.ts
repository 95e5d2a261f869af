import { isPlainObject } from '../antrea/workloads/deep-merge';
import type { DataPath, Diagnostic } from '../diagnostics/diagnostic';
import type { SourceFile } from '../load/source-file';
import { ClusterSetSchema } from '../model/clusterset';
import { runRules } from './run-rules';

/** Lists whose entries stand alone: one that fails the schema is set aside and the others checked. */
const ENTRIES = new Set(['clusters', 'services', 'tiers', 'policies']);

/**
 * A definition that fails the schema still gets the rules that can run: an unknown key is dropped
 * wherever it is, each entry of spec.clusters, services, tiers or policies with another schema
 * error is replaced by a stand-in that passes it (its name kept, nothing else), and the rules run
 * over the rest. Whatever they report at or about a stand-in is dropped, as are reports about
 * a dropped key. When the schema error is elsewhere and cannot be set aside (a missing or
 * malformed required field), nothing more is checked. Positions stay right: nothing moves.
 */
export function validateWhatRemains(source: SourceFile, diagnostics: Diagnostic[]): void {
  const data: unknown = structuredClone(source.data);
  const set: DataPath[] = [];
  /** the objects an unknown key was dropped from */
  const typoed: DataPath[] = [];
  for (let round = 0; round < 3; round++) {
    const result = ClusterSetSchema.safeParse(data);
    if (result.success) {
      const found: Diagnostic[] = [];
      runRules({ source, definition: result.data }, found);
      const within = (p: DataPath) => set.some((s) => s.every((x, i) => p[i] === x));
      // a field missing beside a dropped key may be that key misspelt: the schema error says so
      const beside = (p: DataPath) =>
        typoed.some((t) => (p.length === t.length || (p.length === t.length + 1 && valueAt(data, p) === undefined)) && t.every((x, i) => p[i] === x));
      diagnostics.push(...found.filter((d) => !within(d.path) && !beside(d.path) && !(d.related ?? []).some((r) => within(r.path))));
      return;
    }
    for (const issue of result.error.issues) {
      const path = issue.path.map((p) => (typeof p === 'symbol' ? String(p) : p));
      const entry = path[0] === 'spec' && typeof path[1] === 'string' && ENTRIES.has(path[1]) && typeof path[2] === 'number' ? path.slice(0, 3) : undefined;
      // an unknown key is dropped wherever it is, an entry's included: the rest of that entry (its
      // Pod CIDRs, its Gateways) is still what the user wrote and is checked (#38)
      if (issue.code === 'unrecognized_keys') {
        const parent = valueAt(data, path);
        if (!isPlainObject(parent)) return;
        for (const key of issue.keys) {
          // eslint-disable-next-line @typescript-eslint/no-dynamic-delete -- the key zod named is dropped from the user's data in place
          delete parent[key];
          set.push([...path, key]);
        }
        typoed.push(path);
      } else if (entry) {
        standIn(data, entry as [string, string, number]);
        set.push(entry);
      } else return;
    }
  }
}

function valueAt(data: unknown, path: readonly (string | number)[]): unknown {
  return path.reduce<unknown>((v, p) => (isPlainObject(v) || Array.isArray(v) ? (v as Record<string | number, unknown>)[p] : undefined), data);
}

/** The smallest entry the schema accepts, keeping its name so that references to it still resolve. */
function standIn(data: unknown, [, list, index]: [string, string, number]): void {
  const entries = valueAt(data, ['spec', list]) as unknown[];
  const old = entries[index];
  const name = (key: string) => (isPlainObject(old) && typeof old[key] === 'string' ? old[key] : `unchecked-${index}`);
  switch (list) {
    case 'clusters':
      entries[index] = { clusterID: name('clusterID'), ...(isPlainObject(old) && typeof old.member === 'boolean' && { member: old.member }) };
      break;
    case 'services':
      entries[index] = { name: name('name'), namespace: name('namespace'), exportFrom: [] };
      break;
    case 'tiers':
      entries[index] = { name: name('name'), priority: 0 };
      break;
    case 'policies':
      entries[index] = { name: name('name'), spec: {} };
      break;
  }
}
