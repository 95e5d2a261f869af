import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import type { OutputFile } from './layout';

/** A user-facing refusal (exit code 2), not a bug. */
export class OutputError extends Error {}

/** The folders this run owns: every top-level folder of the output, or just some ClusterSets. */
export interface Scope {
  /** true when every definition was compiled: the whole output directory is replaced */
  readonly full: boolean;
  readonly clusterSets: readonly string[];
}

const MANIFEST = 'manifest.json';

/**
 * Writes into a temporary directory beside the output, then swaps it in with renames, so a
 * failure leaves the previous output untouched. A non-empty directory that this tool did not
 * create (no manifest.json) is refused rather than overwritten.
 */
export function writeOutput(outDir: string, files: readonly OutputFile[], scope: Scope): void {
  const out = resolve(outDir);
  guardOwnership(out);
  mkdirSync(dirname(out), { recursive: true });
  const staging = mkdtempSync(join(dirname(out), '.clusterset-tmp-'));
  try {
    for (const f of files) {
      const target = join(staging, f.path);
      mkdirSync(dirname(target), { recursive: true });
      writeFileSync(target, f.content);
    }
    if (scope.full || !existsSync(out)) {
      swap(staging, out);
      return;
    }
    for (const name of scope.clusterSets) {
      const from = join(staging, name);
      if (existsSync(from)) swap(from, join(out, name));
    }
    writeFileSync(join(out, MANIFEST), mergeManifest(join(out, MANIFEST), readFileSync(join(staging, MANIFEST), 'utf8'), scope.clusterSets));
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

/** Replace `target` by `source` with two renames; the old tree is removed only afterwards. */
function swap(source: string, target: string): void {
  const old = existsSync(target) ? `${target}.old-${process.pid}-${Date.now()}` : undefined;
  if (old) renameSync(target, old);
  try {
    renameSync(source, target);
  } catch (err) {
    if (old) renameSync(old, target);
    throw err;
  }
  if (old) rmSync(old, { recursive: true, force: true });
}

function guardOwnership(out: string): void {
  if (!existsSync(out)) return;
  const entries = readdirSync(out).filter((e) => !e.startsWith('.'));
  if (entries.length > 0 && !existsSync(join(out, MANIFEST))) {
    throw new OutputError(`refusing to write into ${relative(process.cwd(), out) || out}: it is not empty and has no ${MANIFEST} from a previous synth`);
  }
}

function mergeManifest(path: string, fresh: string, names: readonly string[]): string {
  const next = JSON.parse(fresh) as { clusterSets: Record<string, unknown> };
  let previous: { clusterSets?: Record<string, unknown> } = {};
  try {
    previous = JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    previous = {};
  }
  const merged: Record<string, unknown> = { ...(previous.clusterSets ?? {}) };
  for (const n of names) merged[n] = next.clusterSets[n];
  const sorted = Object.fromEntries(Object.keys(merged).sort().map((k) => [k, merged[k]]));
  return `${JSON.stringify({ generator: 'antrea-clusterset', clusterSets: sorted }, null, 2)}\n`;
}

/** Files that differ between the expected output and the directory: changed, missing, extra. */
export function staleFiles(outDir: string, files: readonly OutputFile[], scope: Scope): string[] {
  const out = resolve(outDir);
  const expected = new Map(files.map((f) => [f.path, f.content]));
  const stale: string[] = [];
  const actual = new Set<string>();
  const roots = scope.full ? [''] : scope.clusterSets;
  for (const root of roots) for (const p of listFiles(out, root)) actual.add(p);
  for (const [path, content] of expected) {
    if (!scope.full && path === MANIFEST) continue;
    let current: string | undefined;
    try {
      current = readFileSync(join(out, path), 'utf8');
    } catch {
      current = undefined;
    }
    if (current === undefined) stale.push(`${path} (missing)`);
    else if (current !== content) stale.push(`${path} (changed)`);
  }
  for (const p of actual) if (!expected.has(p)) stale.push(`${p} (not generated)`);
  return stale.sort();
}

function listFiles(base: string, sub: string): string[] {
  const dir = join(base, sub);
  if (!existsSync(dir)) return [];
  return (readdirSync(dir, { recursive: true, withFileTypes: true }) as import('node:fs').Dirent[])
    .filter((d) => d.isFile())
    .map((d) => relative(base, join(d.parentPath ?? (d as unknown as { path: string }).path, d.name)).split(sep).join('/'))
    .filter((p) => !p.split('/').some((part) => part.startsWith('.clusterset-tmp-')));
}
