import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as nodeFs from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, sep } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { stringify } from 'yaml';
import { fleet } from '../../bench/fleet';
import { checkDefinitions } from '../../src/compile';
import { emitToDirectory, recoverOutput, SimulatedCrash, type FileSystemOps } from '../../src/emit/output-directory';
import type { ParsedClusterSet } from '../../src/model/parse-clusterset';
import { CLI_BIN } from '../helpers/cli-bin';

// kill -9 at any moment of a synth: afterwards the output is exactly the old or the new tree
// once the next run has started (it finishes a committed journal or drops uncommitted staging),
// and nothing is left beside it. In process, a fault after the n-th file-system change stands
// for the kill (no cleanup code runs); below, real processes are killed too.

const tmp = mkdtempSync(join(tmpdir(), 'clusterset-crash-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
let n = 0;

type Tree = Map<string, string>;
function tree(dir: string): Tree | undefined {
  if (!existsSync(dir)) return undefined;
  const out: Tree = new Map();
  for (const e of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (e.isFile()) out.set(relative(dir, join(e.parentPath, e.name)).split(sep).join('/'), readFileSync(join(e.parentPath, e.name), 'utf8'));
  }
  return out;
}

/** Real file-system calls that stop the run (as a kill would) after `budget` changes; counts them. */
function faulty(budget: number): FileSystemOps & { count: number } {
  const ops = {
    count: 0,
    step() {
      if (ops.count++ >= budget) throw new SimulatedCrash(`killed after ${budget} changes`);
    },
    writeFileSync: (p: string, d: string) => (ops.step(), nodeFs.writeFileSync(p, d)),
    renameSync: (a: string, b: string) => (ops.step(), nodeFs.renameSync(a, b)),
    rmSync: (p: string, o: { recursive: boolean; force: boolean }) => (ops.step(), nodeFs.rmSync(p, o)),
    mkdirSync: (p: string, o: { recursive: boolean }) => (ops.step(), void nodeFs.mkdirSync(p, o)),
  };
  return ops;
}

async function parsed(definition: unknown): Promise<ParsedClusterSet[]> {
  const dir = join(tmp, `def-${n++}`);
  mkdirSync(dir);
  writeFileSync(join(dir, 'fleet.yaml'), stringify(definition));
  const checked = await checkDefinitions([join(dir, 'fleet.yaml')]);
  expect(checked.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  return [...checked.parsed];
}

/** Evenly spread kill points over a run of `total` changes, both ends included. */
const points = (total: number, count: number) => [...new Set(Array.from({ length: count }, (_, i) => Math.round((i * total) / (count - 1))))];

describe('kill at any moment', async () => {
  const v1 = await parsed(fleet(4));
  const v2 = await parsed(fleet(3, { changedMember: 2 })); // one member gone, one Gateway moved

  const scenarios = [
    { name: 'first synth into an absent output', from: undefined, to: v2 },
    { name: 'a synth that changes and removes bundles', from: v1, to: v2 },
    { name: 'a --rebuild over an unchanged output', from: v2, to: v2 },
  ];

  test.each(scenarios)('$name: always the old or the new tree, and the next run cleans up', async ({ from, to }) => {
    const base = join(tmp, `base-${n++}`);
    if (from) await emitToDirectory(from, { out: join(base, 'dist'), full: true }, []);
    const old = tree(join(base, 'dist'));
    // the new tree, and how many file-system changes a whole run makes
    const reference = join(tmp, `reference-${n++}`);
    if (from) cpSync(base, reference, { recursive: true });
    const counter = faulty(Number.MAX_SAFE_INTEGER);
    await emitToDirectory(to, { out: join(reference, 'dist'), full: true, rebuild: true, fs: counter }, []);
    const next = tree(join(reference, 'dist'));
    expect(next).not.toEqual(old === undefined ? undefined : new Map());

    const kills = points(counter.count - 1, 10);
    expect(kills.length).toBe(Math.min(10, counter.count));
    for (const k of kills) {
      const run = join(tmp, `kill-${n++}`);
      if (from) cpSync(base, run, { recursive: true });
      else mkdirSync(run);
      const out = join(run, 'dist');
      await expect(emitToDirectory(to, { out, full: true, rebuild: true, fs: faulty(k) }, [])).rejects.toThrow(SimulatedCrash);
      const same = (a: Tree | undefined, b: Tree | undefined) => JSON.stringify(a && [...a]) === JSON.stringify(b && [...b]);
      // before the next run: the old or the new tree, unless a committed journal waits to be finished
      if (!existsSync(join(run, '.dist.clusterset/journal.json')))
        expect(same(tree(out), old) || same(tree(out), next), `killed after ${k} changes`).toBe(true);
      recoverOutput(out);
      const after = tree(out);
      expect(same(after, old) || same(after, next), `killed after ${k} changes: neither old nor new`).toBe(true);
      expect(readdirSync(run), `killed after ${k} changes: leftovers`).toEqual(after ? ['dist'] : []);
      // and a synth after that gives the new tree
      await emitToDirectory(to, { out, full: true }, []);
      expect(tree(out)).toEqual(next);
    }
  });
});

describe('kill -9 of a real process', () => {
  test('a synth killed while writing leaves the old or the new tree for the next run', async () => {
    const dir = join(tmp, `real-${n++}`);
    mkdirSync(join(dir, 'clustersets'), { recursive: true });
    const run = (args: string[], killAfterMs?: number) =>
      new Promise<{ code: number | null; ms: number }>((done) => {
        const start = Date.now();
        const child = spawn(process.execPath, [CLI_BIN, ...args], { cwd: dir, stdio: 'ignore' });
        if (killAfterMs !== undefined) setTimeout(() => child.kill('SIGKILL'), killAfterMs);
        child.on('exit', (code) => done({ code, ms: Date.now() - start }));
      });
    writeFileSync(join(dir, 'clustersets/fleet.yaml'), stringify(fleet(20)));
    const first = await run(['synth']);
    expect(first.code).toBe(0);
    const old = JSON.stringify([...tree(join(dir, 'dist'))!]);
    writeFileSync(join(dir, 'clustersets/fleet.yaml'), stringify(fleet(16, { changedMember: 3 })));
    // writing comes last: kill late in a run of the same size
    const killed = await run(['synth', '--rebuild'], Math.round(first.ms * 0.9));
    const next = await run(['synth', '--check']);
    const now = JSON.stringify([...tree(join(dir, 'dist'))!]);
    // killed in time: the old tree (check says stale); too late: the new one (check passes)
    expect(killed.code === null ? [old === now ? 1 : 0, 0] : [0]).toContain(next.code);
    if (killed.code === null && next.code === 1) expect(now).toBe(old);
    expect(readdirSync(dir).sort()).toEqual(['clustersets', 'dist']);
  }, 60_000);
});
