import { describe, expect, test } from 'vitest';
import { parse, parseAllDocuments } from 'yaml';
import { configKeys, CONFIG_FILE_NAMES, type ConfigFile, type KeyTree } from '../../src/antrea/config-keys';
import { RELEASES } from '../../src/antrea/releases';
import { readReference, referenceDir } from './reference';

/**
 * The keys we accept in agentConfig / controllerConfig are the keys of upstream's chart config for
 * that release: its settings (as data), the feature gates it lists commented out, and the other
 * settings it documents commented out.
 */
const isMap = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const treeOf = (v: Record<string, unknown>): KeyTree => Object.fromEntries(Object.entries(v).map(([k, x]) => [k, isMap(x) ? treeOf(x) : null]));

/** `#  Name: true` lines inside the `featureGates:` block; `#name: value` lines at top level. */
function commented(text: string): { gates: string[]; keys: string[] } {
  const lines = text.split('\n');
  const start = lines.findIndex((l) => /^featureGates:/.test(l));
  const end = lines.findIndex((l, i) => i > start && /^[A-Za-z]/.test(l));
  const gates = lines.slice(start + 1, end).flatMap((l) => /^#\s+([A-Z][A-Za-z0-9]+):\s*(true|false)\s*$/.exec(l)?.[1] ?? []);
  const keys = lines.flatMap((l) => /^#([a-z][A-Za-z0-9]+):\s*\S+\s*$/.exec(l)?.[1] ?? []);
  return { gates, keys };
}

describe.each(RELEASES.map((r) => [r.version, r] as const))('Antrea %s config keys equal the chart', (_, release) => {
  const { dir, have } = referenceDir(release, 'config-keys');
  const configMap = have
    ? (parseAllDocuments(readReference(dir, 'antrea.yml'), { version: '1.1' })
        .map((d) => d.toJS() as { kind?: string; metadata?: { name?: string }; data?: Record<string, string> } | null)
        .find((o) => o?.kind === 'ConfigMap' && o.metadata?.name === 'antrea-config')?.data ?? {})
    : {};

  test.skipIf(!have).each<ConfigFile>(['agent', 'controller'])('%s', (file) => {
    const text = configMap[CONFIG_FILE_NAMES[file]]!;
    const { gates, keys } = commented(text);
    expect(gates.length).toBeGreaterThan(10);
    const settings = treeOf(parse(text, { version: '1.1' }) as Record<string, unknown>);
    const expected: KeyTree = { ...settings, ...Object.fromEntries(keys.map((k) => [k, null])), featureGates: Object.fromEntries(gates.map((g) => [g, null])) };
    expect(configKeys(release, file)).toEqual(expected);
  });
});
