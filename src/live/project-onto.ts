import { isPlainObject } from '../antrea/workloads/deep-merge';

type Obj = Record<string, unknown>;

/**
 * The live value restricted to the fields `head` sets, as server-side apply compares them: keys
 * the head does not name are someone else's (the server's defaults, a controller's status); a
 * list whose items carry a distinct merge key (mergeKey) is matched by it (an associative list:
 * other items are someone else's), any other list is compared whole.
 */
export function projectOnto(live: unknown, head: unknown): unknown {
  if (isPlainObject(head) && isPlainObject(live)) {
    const out: Obj = {};
    for (const k of Object.keys(head)) if (k in live) out[k] = projectOnto(live[k], head[k]);
    return out;
  }
  if (Array.isArray(head) && Array.isArray(live)) {
    const key = mergeKey(head);
    if (key !== undefined) {
      const byKey = new Map(live.filter(isPlainObject).map((l) => [l[key], l]));
      return head.flatMap((h) => {
        const l = byKey.get((h as Obj)[key]);
        return l === undefined ? [] : [projectOnto(l, h)];
      });
    }
    return (live as unknown[]).map((l, i) => (i < head.length ? projectOnto(l, (head as unknown[])[i]) : l));
  }
  return live;
}

/** Keys by which Kubernetes merges list items (containers, env, volumes: name; volumeMounts: mountPath; ports). */
const MERGE_KEYS = ['name', 'mountPath', 'containerPort'];

/** The key that tells a list's items apart, when every item has a distinct one; undefined for a list compared whole. */
function mergeKey(items: readonly unknown[]): string | undefined {
  if (items.length === 0 || !items.every(isPlainObject)) return undefined;
  return MERGE_KEYS.find((k) => {
    const values = items.map((i) => i[k]);
    return values.every((v) => typeof v === 'string' || typeof v === 'number') && new Set(values).size === values.length;
  });
}
