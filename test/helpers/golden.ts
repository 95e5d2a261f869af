import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { expect } from 'vitest';
import { compile } from '../../src/pipeline/compile';
import type { OutputFile } from '../../src/layout/layout';

/** CRDs are proven against upstream by the conformance test; goldens keep to what a definition controls. */
export const isCrdFile = (path: string) => path.split('/').pop()!.startsWith('CustomResourceDefinition.');

/**
 * Outputs by the definitions' paths and bytes: test files share their worker (isolate: false),
 * so the examples and fixtures several tests read are compiled once per worker, not per test.
 */
const compiled = new Map<string, Promise<Awaited<ReturnType<typeof compile>>>>();

/** Compiles definitions in memory (once per content); fails the test on any error diagnostic. */
export async function compileFiles(files: readonly string[]): Promise<OutputFile[]> {
  const hash = createHash('sha256');
  for (const f of files) hash.update(f).update('\0').update(readFileSync(f)).update('\0');
  const key = hash.digest('hex');
  if (!compiled.has(key)) compiled.set(key, compile({ files }));
  const result = await compiled.get(key)!;
  const errors = result.diagnostics.filter((d) => d.severity === 'error');
  expect(errors, JSON.stringify(errors, null, 2)).toEqual([]);
  return [...result.files];
}

/**
 * Golden tree: the file list must match `dir` exactly and each file its snapshot there
 * (`npm run test:update` rewrites them; review the diff like code).
 */
export async function expectGoldenTree(files: readonly OutputFile[], dir: string, include: (path: string) => boolean = (p) => !isCrdFile(p)): Promise<void> {
  const root = resolve(dir);
  const chosen = files.filter((f) => include(f.path));
  if (existsSync(root)) {
    const onDisk = readdirSync(root, { recursive: true, withFileTypes: true })
      .filter((d) => d.isFile())
      .map((d) => relative(root, join(d.parentPath, d.name)).split(sep).join('/'))
      .sort();
    // `vitest -u` rewrites goldens: files no longer generated are removed too
    const updating = (expect.getState().snapshotState as unknown as { _updateSnapshot?: string })._updateSnapshot === 'all';
    const expected = new Set(chosen.map((f) => f.path));
    if (updating) {
      for (const p of onDisk) if (!expected.has(p)) rmSync(join(root, p));
    } else {
      expect(onDisk).toEqual([...expected].sort());
    }
  }
  for (const f of chosen) await expect(f.content).toMatchFileSnapshot(join(root, f.path));
}

/**
 * The files as each bundle sees them: a shared unit (`_shared/<release>/<layer>/<hash>/`, listed
 * by a bundle's layer) is copied into every bundle layer that lists it, as `<bundle>/<layer>/<file>`.
 */
export function withSharedUnitsInBundles(files: readonly OutputFile[]): OutputFile[] {
  const units = new Map<string, OutputFile[]>();
  for (const f of files) {
    const m = /^(_shared\/[^/]+\/[^/]+\/[^/]+)\/(.+)$/.exec(f.path);
    if (m && m[2] !== 'kustomization.yaml') units.set(m[1]!, [...(units.get(m[1]!) ?? []), { path: m[2]!, content: f.content }]);
  }
  const out: OutputFile[] = [];
  for (const f of files) {
    if (f.path.startsWith('_shared/')) continue;
    out.push(f);
    const layer = /^([^/]+\/[^/]+\/[^/]+)\/kustomization\.yaml$/.exec(f.path);
    if (!layer) continue;
    for (const ref of f.content.matchAll(/- \.\.\/\.\.\/\.\.\/(_shared\/\S+)/g)) {
      for (const o of units.get(ref[1]!) ?? []) out.push({ path: `${String(layer[1])}/${o.path}`, content: o.content });
    }
  }
  return out;
}
