import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect } from 'vitest';
import { parse, stringify } from 'yaml';
import { checkDefinitions, compile } from '../../src/compile';
import type { ClusterSetInput } from '../../src/model/clusterset';
import { parseClusterSet } from '../../src/model/parse-clusterset';
import type { CompiledRevision, Plan } from '../../src/plan/plan';
import { clusterSetSources, type ClusterSetSources } from '../../src/synth/synth-clusterset';

/** A definition as written (defaults not applied), for the cases to edit. */
export type Definition = ClusterSetInput;
export const example = (name: string): Definition => parse(readFileSync(`clustersets/${name}.yaml`, 'utf8')) as Definition;
const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

/** Compiles definitions (file name → definition) as one revision, in memory, with its unbuilt sources (as `plan` reads it). */
export async function revision(files: Record<string, Definition | string>): Promise<CompiledRevision & { sets: ClusterSetSources[] }> {
  const dir = mkdtempSync(join(tmpdir(), 'plan-test-'));
  dirs.push(dir);
  const paths = Object.entries(files).map(([name, d]) => {
    mkdirSync(join(dir, 'clustersets'), { recursive: true });
    writeFileSync(join(dir, 'clustersets', name), typeof d === 'string' ? d : stringify(d));
    return join(dir, 'clustersets', name);
  });
  const result = await compile({ files: paths });
  expect(result.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  const definitions = new Map(
    result.sources.map((s) => {
      const parsed = parseClusterSet(s, [])!;
      return [parsed.definition.metadata.name, { definition: parsed.definition, file: s.file.slice(dir.length + 1) }] as const;
    }),
  );
  const sets = (await checkDefinitions(paths)).parsed.map(clusterSetSources);
  return { outputs: result.outputs, definitions, sets };
}

export const lines = (plan: Plan) => plan.changes.map((c) => `[${c.impact}] ${c.text}`);
