import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect } from 'vitest';
import { parse, stringify } from 'yaml';
import { validateDefinitions, compile } from '../../src/pipeline/compile';
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
  const texts = Object.entries(files).map(([name, d]) => [name, typeof d === 'string' ? d : stringify(d)] as const);
  const key = JSON.stringify(texts);
  let compiled = REVISIONS.get(key);
  if (!compiled) REVISIONS.set(key, (compiled = compileRevision(texts)));
  const { errors, result } = await compiled;
  expect(errors).toEqual([]);
  // shared by every caller of the same texts: the plan only reads a revision (its bundles are built
  // on demand, so a copy would not be one), and so must the tests
  return { ...result, definitions: new Map(result.definitions), outputs: [...result.outputs], sets: [...result.sets] };
}

type Compiled = { errors: unknown[]; result: CompiledRevision & { sets: ClusterSetSources[] } };

/**
 * Revisions by their files' texts: test files share their worker, and a plan's base revision is
 * often the same example (the engine replay's scenarios plan every change from one base).
 */
const REVISIONS = new Map<string, Promise<Compiled>>();

async function compileRevision(files: readonly (readonly [string, string])[]): Promise<Compiled> {
  const dir = mkdtempSync(join(tmpdir(), 'plan-test-'));
  dirs.push(dir);
  const paths = files.map(([name, text]) => {
    mkdirSync(join(dir, 'clustersets'), { recursive: true });
    writeFileSync(join(dir, 'clustersets', name), text);
    return join(dir, 'clustersets', name);
  });
  const result = await compile({ files: paths });
  const errors = result.diagnostics.filter((d) => d.severity === 'error');
  const definitions = new Map(
    result.sources.map((s) => {
      const parsed = parseClusterSet(s, [])!;
      return [parsed.definition.metadata.name, { definition: parsed.definition, file: s.file.slice(dir.length + 1) }] as const;
    }),
  );
  const sets = (await validateDefinitions(paths)).parsed.map(clusterSetSources);
  return { errors, result: { outputs: result.outputs, definitions, sets } };
}

export const lines = (plan: Plan) => plan.changes.map((c) => `[${c.impact}] ${c.text}`);
