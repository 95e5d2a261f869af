import type { DataPath } from '../diagnostics/diagnostic';

/**
 * Readers over a policy spec, which the model keeps as free-form data (policy-schema checks its
 * shape): they skip whatever does not have the expected shape instead of trusting it.
 */

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

/** A `scope: ClusterSet` entry of a policy spec, with the path of its `scope` value. */
export interface ClusterSetScope {
  readonly kind: 'peer' | 'toService';
  readonly path: DataPath;
  /** for toServices entries */
  readonly service?: { readonly namespace: string; readonly name: string };
}

/** Ingress peers `from[].scope: ClusterSet` and egress `toServices[].scope: ClusterSet` of a policy spec. */
export function clusterSetScopes(spec: unknown, base: DataPath): ClusterSetScope[] {
  const found: ClusterSetScope[] = [];
  if (!isRecord(spec)) return found;
  list(spec.ingress).forEach((rule, r) => {
    if (!isRecord(rule)) return;
    list(rule.from).forEach((peer, p) => {
      if (isRecord(peer) && peer.scope === 'ClusterSet') found.push({ kind: 'peer', path: [...base, 'ingress', r, 'from', p, 'scope'] });
    });
  });
  list(spec.egress).forEach((rule, r) => {
    if (!isRecord(rule)) return;
    list(rule.toServices).forEach((svc, s) => {
      if (!isRecord(svc) || svc.scope !== 'ClusterSet') return;
      const service = typeof svc.name === 'string' && typeof svc.namespace === 'string' ? { namespace: svc.namespace, name: svc.name } : undefined;
      found.push({ kind: 'toService', path: [...base, 'egress', r, 'toServices', s, 'scope'], ...(service ? { service } : {}) });
    });
  });
  return found;
}

export const policySpecPath = (index: number): DataPath => ['spec', 'policies', index, 'spec'];
