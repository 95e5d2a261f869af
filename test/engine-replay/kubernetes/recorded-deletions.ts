import type { ApiServer } from './api-server';
import type { Obj } from './kube';

/** One DELETE an API server carried out: the cluster, and the object as it was live. */
export interface Deletion {
  readonly cluster: string;
  readonly obj: Obj;
}

/**
 * Every DELETE the API servers carry out from now on (the engines', a person's commands, the
 * garbage collector's), recorded as it happens: the array fills while the fleet runs.
 */
export function recordDeletions(clusters: Iterable<ApiServer>): Deletion[] {
  const out: Deletion[] = [];
  for (const c of clusters) {
    const original = c.delete.bind(c);
    c.delete = (o) => {
      const live = c.getLike(o);
      const deleted = original(o);
      if (deleted) out.push({ cluster: c.clusterID, obj: live ?? o });
      return deleted;
    };
  }
  return out;
}
