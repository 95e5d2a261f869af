import { dataPathText, type DataPath } from '../../diagnostics/diagnostic';
import { UNSET } from '../../model/unset';
import type { RawRule } from '../rule';

/** What each value `clusterset import` cannot know is for, by the key that holds it. */
const HINTS: Readonly<Record<string, string>> = {
  source: 'choose how git provides the member token: manual (keep the Secret copied by hand), externalSecret or sealedSecret (docs/adopt.md)',
  delivery: 'choose the engine: spec.delivery.argocd or spec.delivery.flux (docs/delivery.md), or {} to deliver the bundles yourself',
  server: "write the leader API server URL as the members reach it (their ClusterSets' leaders[0].server)",
};
const CLUSTER_DELIVERY =
  "write this cluster's destination for the engine of spec.delivery: with Argo CD { argocd: { name: <cluster name> } } or { argocd: { server: https://… } }; with Flux {} (the cluster's own Flux) or { flux: { kubeConfigSecretRef: { name: <Secret> } } } (a hub Flux) (docs/delivery.md)";

/**
 * `clusterset import` writes `<unset>` where no dump tells the value (a comment would never reach
 * validate); each is an error until someone decides it. Runs on raw data, before the schema,
 * so an `<unset>` in place of an object or an enum is named in these words.
 */
export const unsetValue: RawRule = {
  id: 'unset-value',
  severity: 'error',
  description: 'a value clusterset import could not know is still <unset>',
  validateRaw({ data, report }) {
    const stack: [unknown, DataPath][] = [[data, []]];
    const seen = new Set<object>();
    while (stack.length > 0) {
      const [value, path] = stack.pop()!;
      if (value === UNSET) {
        const key = path[path.length - 1];
        // a cluster's delivery (spec.clusters[i].delivery) is its destination, not the engine
        const hint = key === 'delivery' && path.length > 2 ? CLUSTER_DELIVERY : typeof key === 'string' ? HINTS[key] : undefined;
        report({
          path,
          message: `${dataPathText(path)} is not set: the running clusters do not tell it`,
          hint: hint ?? 'write the value this ClusterSet should have',
        });
      } else if (typeof value === 'object' && value !== null && !seen.has(value)) {
        seen.add(value);
        for (const [k, v] of Object.entries(value)) stack.push([v, [...path, Array.isArray(value) ? Number(k) : k]]);
      }
    }
  },
};
