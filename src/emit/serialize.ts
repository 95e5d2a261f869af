import { stringify } from 'yaml';

const FIRST = ['apiVersion', 'kind', 'metadata'];

/** Keys sorted at every level, with apiVersion, kind and metadata first at the top (as cdk8s). */
export function canonical(value: unknown, top = true): unknown {
  if (Array.isArray(value)) return value.map((v) => canonical(v, false));
  if (value === null || typeof value !== 'object') return value;
  const keys = Object.keys(value).filter((k) => (value as Record<string, unknown>)[k] !== undefined);
  keys.sort((a, b) => {
    if (top) {
      const ia = FIRST.indexOf(a);
      const ib = FIRST.indexOf(b);
      if (ia !== -1 || ib !== -1) return (ia === -1 ? 99 : ia) - (ib === -1 ? 99 : ib);
    }
    return a < b ? -1 : a > b ? 1 : 0;
  });
  const out: Record<string, unknown> = {};
  for (const k of keys) out[k] = canonical((value as Record<string, unknown>)[k], false);
  return out;
}

/**
 * Deterministic YAML: no folding, no anchors, literal blocks for multi-line strings. Quoted for
 * YAML 1.1: kubectl, Argo CD and Flux decode through sigs.k8s.io/yaml, whose go-yaml v2
 * (resolve.go, `resolve`) reads plain `no`, `on`, `y`, `~` or `0400` as bools, nulls and numbers.
 * The 1.1 schema quotes every such string; the output reads the same under YAML 1.2.
 */
export function toYaml(value: unknown): string {
  return stringify(canonical(value), { version: '1.1', lineWidth: 0, minContentWidth: 0, aliasDuplicateObjects: false });
}
