import { fastYaml, sortedKeys } from '../yaml/fast-yaml';
import { printableYaml, READER_SAFE } from '../yaml/yaml-readers';

/** Keys sorted at every level, with apiVersion, kind and metadata first at the top (as cdk8s; fast-yaml.ts, `sortedKeys`). */
export function canonical(value: unknown, top = true): unknown {
  if (Array.isArray(value)) return value.map((v) => canonical(v, false));
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const k of sortedKeys(value as Record<string, unknown>, top)) out[k] = canonical((value as Record<string, unknown>)[k], false);
  return out;
}

const OPTIONS = { ...READER_SAFE, lineWidth: 0, minContentWidth: 0, aliasDuplicateObjects: false } as const;

/**
 * Deterministic YAML: no folding, no anchors, literal blocks for multi-line strings. Quoted for
 * YAML 1.1: kubectl, Argo CD and Flux decode through sigs.k8s.io/yaml, whose go-yaml v2
 * (resolve.go, `resolve`) reads plain `no`, `on`, `y`, `~` or `0400` as bools, nulls and numbers.
 * The 1.1 schema quotes every such string; the output reads the same under YAML 1.2. A string
 * with a control, format or invisible character is written with escapes (`printableYaml`).
 *
 * yaml v2 decides the bytes. Most objects take `fastYaml`, which writes the same bytes for the
 * shapes a bundle is made of at a tenth of the cost (a fleet serializes every member's objects);
 * anything outside them goes to yaml v2 whole.
 */
export function toYaml(value: unknown): string {
  return fastYaml(value) ?? yamlV2(canonical(value));
}

/** yaml v2's bytes for a value already canonical: what `toYaml` writes where `fastYaml` declines. */
export const yamlV2 = (canonicalValue: unknown): string => printableYaml(canonicalValue, OPTIONS);
