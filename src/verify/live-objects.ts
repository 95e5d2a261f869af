import { parseAllDocuments } from 'yaml';

/** What `clusterset status` reads of one cluster: its live objects, by kind, namespace and name. */
export interface LiveObjects {
  get(kind: LiveKind, namespace: string, name: string): Record<string, unknown> | undefined;
  /** every object of a kind in a Namespace ('' for cluster-scoped kinds), in name order */
  list(kind: LiveKind, namespace: string): Record<string, unknown>[];
}

/** The kinds the checks read (and the only ones `kubectl get` is asked for), by their full resource name. */
export const LIVE_KINDS = {
  ClusterSet: 'clustersets.multicluster.crd.antrea.io',
  Gateway: 'gateways.multicluster.crd.antrea.io',
  ServiceImport: 'serviceimports.multicluster.x-k8s.io',
  // `status` only (the Job does not read them): a member's view of the others' Gateways, and the candidates' readiness
  ClusterInfoImport: 'clusterinfoimports.multicluster.crd.antrea.io',
  Node: 'nodes',
} as const;
export type LiveKind = keyof typeof LIVE_KINDS;

/** A saved cluster dump is untrusted input: bounded before it is parsed, no aliases, no custom tags. */
const MAX_BYTES = 64 * 1024 * 1024;

export class LiveObjectsError extends Error {}

/**
 * `kubectl get ... -o yaml` output (a `List`, or one object, or several documents) as
 * LiveObjects. Only the kinds the checks read are kept.
 */
export function parseLiveObjects(text: string): LiveObjects {
  if (Buffer.byteLength(text, 'utf8') > MAX_BYTES) throw new LiveObjectsError(`larger than ${MAX_BYTES} bytes`);
  const byKey = new Map<string, Record<string, unknown>>();
  for (const doc of parseAllDocuments(text, { version: '1.1', uniqueKeys: true })) {
    if (doc.errors.length > 0) throw new LiveObjectsError(doc.errors[0]!.message);
    let data: unknown;
    try {
      data = doc.toJS({ maxAliasCount: 0 });
    } catch (err) {
      // kubectl never writes aliases; yaml refuses to expand them here
      throw new LiveObjectsError(err instanceof Error ? err.message : String(err));
    }
    collect(data, byKey);
  }
  return {
    get: (kind, namespace, name) => byKey.get(key(kind, namespace, name)),
    list: (kind, namespace) =>
      [...byKey.entries()]
        .filter(([k]) => k.startsWith(`${kind}\0${namespace}\0`))
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
        .map(([, o]) => o),
  };
}

const key = (kind: string, namespace: string, name: string) => `${kind}\0${namespace}\0${name}`;

function collect(value: unknown, byKey: Map<string, Record<string, unknown>>): void {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return;
  const o = value as Record<string, unknown>;
  if (Array.isArray(o.items)) {
    for (const item of o.items) collect(item, byKey);
    return;
  }
  const kind = o.kind;
  const meta = o.metadata as Record<string, unknown> | undefined;
  if (typeof kind !== 'string' || !(kind in LIVE_KINDS) || typeof meta?.name !== 'string') return;
  byKey.set(key(kind, typeof meta.namespace === 'string' ? meta.namespace : '', meta.name), o);
}
