import { existsSync, readdirSync, readFileSync } from 'node:fs';
import * as nodeFs from 'node:fs';
import { join, relative, sep } from 'node:path';
import { expect } from 'vitest';
import { SimulatedCrash, type CommitStep, type FileSystemOps } from '../../src/output/file-system-ops';
import { outputSink, type OutputSinkOptions } from '../../src/pipeline/output-sink';
import { runPipeline } from '../../src/pipeline/pipeline';

// What the kill drills share (crash-safety.test.ts in process, kill-9.test.ts with real
// processes): the trees they compare, the faults they inject, the state a run may leave.

export type Tree = Map<string, string>;
export function tree(dir: string): Tree | undefined {
  if (!existsSync(dir)) return undefined;
  const out: Tree = new Map();
  for (const e of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (e.isFile()) out.set(relative(dir, join(e.parentPath, e.name)).split(sep).join('/'), readFileSync(join(e.parentPath, e.name), 'utf8'));
  }
  return new Map([...out].sort(([a], [b]) => (a < b ? -1 : 1)));
}
/** The same paths in the same order with the same bytes (both absent counts as the same), compared entry by entry, not as one JSON text of each tree. */
export function same(a: Tree | undefined, b: Tree | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  if (a.size !== b.size) return false;
  const others = b.entries();
  for (const [path, text] of a) {
    const [otherPath, otherText] = others.next().value!;
    if (path !== otherPath || text !== otherText) return false;
  }
  return true;
}
/** Every entry under a folder, files with their bytes: what --check must leave as it found it. */
export const snapshot = (dir: string) =>
  JSON.stringify(
    readdirSync(dir, { recursive: true, withFileTypes: true })
      .map((e) => {
        const p = join(e.parentPath, e.name);
        return `${relative(dir, p)}${e.isFile() ? `=${readFileSync(p, 'utf8').length}:${nodeFs.statSync(p).mtimeMs}` : '/'}`;
      })
      .sort(),
  );

export const STEPS: readonly CommitStep[] = ['prepared', 'committed', 'moved-old', 'moved-new', 'kept-spare', 'recorded'];

/** Real file-system calls that stop the run (as a kill would) after `budget` changes, or at a step of the commit; counts them. */
export function faulty(budget: number, stopAt?: CommitStep): FileSystemOps & { count: number; steps: CommitStep[] } {
  const ops = {
    count: 0,
    steps: [] as CommitStep[],
    step() {
      if (ops.count++ >= budget) throw new SimulatedCrash(`killed after ${budget} changes`);
    },
    writeFileSync: (p: string, d: string) => {
      ops.step();
      nodeFs.writeFileSync(p, d);
    },
    renameSync: (a: string, b: string) => {
      ops.step();
      nodeFs.renameSync(a, b);
    },
    rmSync: (p: string, o: { recursive: boolean; force: boolean }) => {
      ops.step();
      nodeFs.rmSync(p, o);
    },
    mkdirSync: (p: string, o: { recursive: boolean }) => (ops.step(), void nodeFs.mkdirSync(p, o)),
    linkSync: (a: string, b: string) => {
      ops.step();
      nodeFs.linkSync(a, b);
    },
    accessSync: (p: string, m: number) => nodeFs.accessSync(p, m),
    at: (s: CommitStep) => {
      ops.steps.push(s);
      if (s === stopAt) throw new SimulatedCrash(`killed at ${s}`);
    },
  };
  return ops;
}

/** The pipeline into the output directory. */
export async function outputToDirectory(files: readonly string[], options: OutputSinkOptions, diagnostics: unknown[]) {
  const run = await runPipeline([{ files }], outputSink(options));
  diagnostics.push(...run.diagnostics);
  return run.result;
}

/** Evenly spread kill points over a run of `total` changes, both ends included. */
export const points = (total: number, count: number) => [...new Set(Array.from({ length: count }, (_, i) => Math.round((i * total) / (count - 1))))];

/** What a finished run may leave beside the output: its state folder, git-ignored, with the spare tree. */
export function expectOnlyState(run: string, after: Tree | undefined, why: string, inputs: string[] = []) {
  expect(readdirSync(run).sort(), why).toEqual([...inputs, '.dist.clusterset', ...(after ? ['dist'] : [])].sort());
  expect(
    readdirSync(join(run, '.dist.clusterset'))
      .filter((e) => !['.gitignore', 'spare', 'spare.json'].includes(e))
      .sort(),
    why,
  ).toEqual([]);
}
