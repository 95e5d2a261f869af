import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as nodeFs from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, sep } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { stringify } from 'yaml';
import { fleet } from '../../bench/fleet';
import { SimulatedCrash, type CommitStep, type FileSystemOps } from '../../src/emit/file-system-ops';
import { OutputError } from '../../src/emit/output-error';
import { recoverOutput } from '../../src/emit/output-transaction';
import { outputSink, type EmitOptions } from '../../src/pipeline/output-sink';
import { runPipeline } from '../../src/pipeline/pipeline';
import { CLI_BIN } from '../helpers/cli-bin';
import { SOAK, soakRows } from '../helpers/soak';

// The invariant of output-transaction.ts: kill -9 at any moment of a synth, and the output is
// exactly the old or the new tree (absent only between the two renames of a commit); the next
// run restores it and leaves nothing but its state folder; `--check` writes nothing and says
// when a commit is pending. In process, a fault after the n-th file-system change, or at a
// named step of the commit, stands for the kill (no cleanup code runs); below, real processes
// are killed too, paused under the writer's test hook (src/emit/file-system-ops.ts `pauseAt`)
// at each step of the commit and at changes spread over a whole run: kills at named points,
// never after a time, so the drills hold however loaded the machine is. `npm test` kills at
// three changes of each scenario and real processes at each step of the commit and once mid-run;
// the soak tier (test/helpers/soak.ts) at more changes, and real processes at each step and at
// changes spread over a whole run, each then checked and repaired through the CLI.

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
  return new Map([...out].sort(([a], [b]) => (a < b ? -1 : 1)));
}
const same = (a: Tree | undefined, b: Tree | undefined) => JSON.stringify(a && [...a]) === JSON.stringify(b && [...b]);
/** Every entry under a folder, files with their bytes: what --check must leave as it found it. */
const snapshot = (dir: string) =>
  JSON.stringify(
    readdirSync(dir, { recursive: true, withFileTypes: true })
      .map((e) => {
        const p = join(e.parentPath, e.name);
        return `${relative(dir, p)}${e.isFile() ? `=${readFileSync(p, 'utf8').length}:${nodeFs.statSync(p).mtimeMs}` : '/'}`;
      })
      .sort(),
  );

const STEPS: readonly CommitStep[] = ['prepared', 'committed', 'moved-old', 'moved-new', 'kept-spare', 'recorded'];

/** Real file-system calls that stop the run (as a kill would) after `budget` changes, or at a step of the commit; counts them. */
function faulty(budget: number, stopAt?: CommitStep): FileSystemOps & { count: number; steps: CommitStep[] } {
  const ops = {
    count: 0,
    steps: [] as CommitStep[],
    step() {
      if (ops.count++ >= budget) throw new SimulatedCrash(`killed after ${budget} changes`);
    },
    writeFileSync: (p: string, d: string) => (ops.step(), nodeFs.writeFileSync(p, d)),
    renameSync: (a: string, b: string) => (ops.step(), nodeFs.renameSync(a, b)),
    rmSync: (p: string, o: { recursive: boolean; force: boolean }) => (ops.step(), nodeFs.rmSync(p, o)),
    mkdirSync: (p: string, o: { recursive: boolean }) => (ops.step(), void nodeFs.mkdirSync(p, o)),
    linkSync: (a: string, b: string) => (ops.step(), nodeFs.linkSync(a, b)),
    accessSync: (p: string, m: number) => nodeFs.accessSync(p, m),
    at: (s: CommitStep) => {
      ops.steps.push(s);
      if (s === stopAt) throw new SimulatedCrash(`killed at ${s}`);
    },
  };
  return ops;
}

/** A definition file of its own, checked to be valid. */
async function parsed(definition: unknown): Promise<string[]> {
  const dir = join(tmp, `def-${n++}`);
  mkdirSync(dir);
  writeFileSync(join(dir, 'fleet.yaml'), stringify(definition));
  const { diagnostics } = await runPipeline([{ files: [join(dir, 'fleet.yaml')] }]);
  expect(diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  return [join(dir, 'fleet.yaml')];
}

/** The pipeline into the output directory. */
async function emitToDirectory(files: readonly string[], options: EmitOptions, diagnostics: unknown[]) {
  const run = await runPipeline([{ files }], outputSink(options));
  diagnostics.push(...run.diagnostics);
  return run.result;
}

/** Evenly spread kill points over a run of `total` changes, both ends included. */
const points = (total: number, count: number) => [...new Set(Array.from({ length: count }, (_, i) => Math.round((i * total) / (count - 1))))];

/** What a finished run may leave beside the output: its state folder, git-ignored, with the spare tree. */
function expectOnlyState(run: string, after: Tree | undefined, why: string, inputs: string[] = []) {
  expect(readdirSync(run).sort(), why).toEqual([...inputs, '.dist.clusterset', ...(after ? ['dist'] : [])].sort());
  expect(
    readdirSync(join(run, '.dist.clusterset'))
      .filter((e) => !['.gitignore', 'spare', 'spare.json'].includes(e))
      .sort(),
    why,
  ).toEqual([]);
}

describe('kill at any moment', async () => {
  const v0 = await parsed(fleet(5));
  const v1 = await parsed(fleet(4));
  const v2 = await parsed(fleet(3, { changedMember: 2 })); // one member gone, one Gateway moved

  /** `history`: the synths that made the output before the killed one (the last two decide the spare) */
  const scenarios = [
    { name: 'first synth into an absent output', history: [], to: v2, spare: true },
    { name: 'a synth that changes and removes bundles (spare from the first synth)', history: [v1], to: v2, spare: true },
    { name: 'a synth after another change (spare of the previous commit)', history: [v0, v1], to: v2, spare: true },
    { name: 'a synth without a spare (hard links to every file)', history: [v0, v1], to: v2, spare: false },
    { name: 'a --rebuild over an unchanged output', history: [v2], to: v2, spare: true },
  ];

  async function base(history: readonly string[][], spare: boolean) {
    const dir = join(tmp, `base-${n++}`);
    mkdirSync(dir);
    for (const h of history) await emitToDirectory(h, { out: join(dir, 'dist'), full: true }, []);
    if (!spare) rmSync(join(dir, '.dist.clusterset'), { recursive: true, force: true });
    return dir;
  }

  test.each(scenarios)('$name: always the old or the new tree, and the next run restores it', async ({ history, to, spare }) => {
    const from = await base(history, spare);
    const old = tree(join(from, 'dist'));
    // the new tree, and how many file-system changes a whole run makes
    const reference = join(tmp, `reference-${n++}`);
    cpSync(from, reference, { recursive: true });
    const counter = faulty(Number.MAX_SAFE_INTEGER);
    await emitToDirectory(to, { out: join(reference, 'dist'), full: true, rebuild: true, fs: counter }, []);
    const next = tree(join(reference, 'dist'));
    expect(next).not.toEqual(new Map());

    // in npm test the first change, the middle one and the last; twelve in the soak tier
    const spread = SOAK ? 12 : 3;
    const kills = points(counter.count - 1, spread);
    expect(kills.length).toBe(Math.min(spread, counter.count));
    for (const k of kills) {
      const run = join(tmp, `kill-${n++}`);
      cpSync(from, run, { recursive: true });
      const out = join(run, 'dist');
      const ops = faulty(k);
      await expect(emitToDirectory(to, { out, full: true, rebuild: true, fs: ops }, [])).rejects.toThrow(SimulatedCrash);
      const why = `killed after ${k} of ${counter.count} changes (steps passed: ${ops.steps.join(', ')})`;
      // before any recovery: old or new, or absent between the two renames
      const between = ops.steps.at(-1) === 'moved-old';
      const now = tree(out);
      expect(same(now, old) || same(now, next) || (between && now === undefined), why).toBe(true);
      recoverOutput(out);
      const after = tree(out);
      expect(same(after, old) || same(after, next), `${why}: neither old nor new after recovery`).toBe(true);
      expectOnlyState(run, after, why);
      // and a synth after that gives the new tree
      await emitToDirectory(to, { out, full: true }, []);
      expect(same(tree(out), next), why).toBe(true);
    }
  });

  // in npm test, the spares the real processes below do not start from: the previous commit's, and none
  test.each(
    soakRows(
      scenarios.filter((s) => s.history.length > 0 && s.to !== s.history.at(-1)),
      (s) => s.history.length > 1,
    ),
  )('$name: killed at each step of the commit, old or new; --check writes nothing and says a commit is pending', async ({ history, to, spare }) => {
    const from = await base(history, spare);
    const old = tree(join(from, 'dist'));
    const reference = join(tmp, `reference-${n++}`);
    cpSync(from, reference, { recursive: true });
    const all = faulty(Number.MAX_SAFE_INTEGER);
    await emitToDirectory(to, { out: join(reference, 'dist'), full: true, fs: all }, []);
    expect(all.steps).toEqual(STEPS);
    const next = tree(join(reference, 'dist'));
    for (const step of STEPS) {
      const run = join(tmp, `step-${n++}`);
      cpSync(from, run, { recursive: true });
      const out = join(run, 'dist');
      await expect(emitToDirectory(to, { out, full: true, fs: faulty(Number.MAX_SAFE_INTEGER, step) }, [])).rejects.toThrow(SimulatedCrash);
      const now = tree(out);
      if (step === 'prepared') expect(same(now, old), step).toBe(true);
      else if (step === 'moved-old') expect(now, step).toBeUndefined();
      else expect(same(now, step === 'committed' ? old : next), step).toBe(true);
      // --check: no write at all, and a pending commit is an error that says so
      const before = snapshot(run);
      const check = emitToDirectory(to, { out, full: true, check: true }, []);
      if (step === 'prepared') expect((await check)?.stale.length).toBeGreaterThan(0);
      else await expect(check).rejects.toThrow(OutputError);
      if (step !== 'prepared') await expect(emitToDirectory(to, { out, full: true, check: true }, [])).rejects.toThrow(/interrupted synth pending/);
      expect(snapshot(run), step).toBe(before);
      // the next synth finishes a committed run, drops an uncommitted one, and writes the new tree
      recoverOutput(out);
      expect(same(tree(out), step === 'prepared' ? old : next), step).toBe(true);
      expectOnlyState(run, next, step);
      const again = await emitToDirectory(to, { out, full: true }, []);
      expect(same(tree(out), next), step).toBe(true);
      if (step === 'prepared') expect(again?.changed, step).toBeGreaterThan(0);
      else expect(again?.changed, step).toBe(0);
      expect((await emitToDirectory(to, { out, full: true, check: true }, []))?.stale, step).toEqual([]);
    }
  });
});

describe('kill -9 of a real process', () => {
  /** A repository whose dist/ the pipeline wrote from fleet(size), and whose definition then changed; the new tree, from a copy. */
  const setup = async (size: number) => {
    const dir = join(tmp, `real-${n++}`);
    const definition = join(dir, 'clustersets/fleet.yaml');
    mkdirSync(join(dir, 'clustersets'), { recursive: true });
    writeFileSync(definition, stringify(fleet(size)));
    await emitToDirectory([definition], { out: join(dir, 'dist'), full: true }, []);
    const old = tree(join(dir, 'dist'));
    writeFileSync(definition, stringify(fleet(size - 3, { changedMember: 2 })));
    const reference = join(tmp, `real-ref-${n++}`);
    cpSync(dir, reference, { recursive: true });
    // how many changes a whole run makes, counted as the writer's hook counts them
    const counter = faulty(Number.MAX_SAFE_INTEGER);
    await emitToDirectory([join(reference, 'clustersets/fleet.yaml')], { out: join(reference, 'dist'), full: true, fs: counter }, []);
    expect(counter.steps).toEqual(STEPS);
    return { dir, old, next: tree(join(reference, 'dist')), changes: counter.count };
  };
  /** A copy of the repository in which the CLI's synth is killed where the hook pauses it. */
  const killed = async (dir: string, pauseAt: string) => {
    const work = join(tmp, `real-kill-${n++}`);
    cpSync(dir, work, { recursive: true });
    const r = await run(work, ['synth'], pauseAt);
    expect(r.code, `${pauseAt}: ${r.stderr}`).toBeNull();
    return work;
  };
  const run = (dir: string, args: string[], pauseAt?: string) =>
    new Promise<{ code: number | null; stderr: string }>((done) => {
      const env = { ...process.env, ...(pauseAt && { CLUSTERSET_TEST_PAUSE_AT: pauseAt }) };
      const child = spawn(process.execPath, [CLI_BIN, ...args], { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'], env });
      let stderr = '';
      child.stderr.on('data', (d: Buffer) => {
        stderr += d.toString();
        if (pauseAt && stderr.includes(`paused at ${pauseAt}\n`)) child.kill('SIGKILL');
      });
      child.on('exit', (code) => done({ code, stderr }));
    });
  /** The output right after the kill: old or new, absent only between the two renames of a commit. */
  const expectOldOrNew = (now: Tree | undefined, at: string, old: Tree | undefined, next: Tree | undefined) => {
    if (at === 'moved-old') expect(now, at).toBeUndefined();
    else if (STEPS.includes(at as CommitStep)) expect(same(now, at === 'prepared' || at === 'committed' ? old : next), at).toBe(true);
    else expect(same(now, old), at).toBe(true);
  };
  /**
   * The CLI's --check writes nothing and, where the output is not the new tree yet, fails (naming a
   * pending commit after `prepared`).
   */
  const expectCliCheck = async (work: string, at: string, next: Tree | undefined) => {
    const before = snapshot(work);
    const stale = !same(tree(join(work, 'dist')), next);
    const check = await run(work, ['synth', '--check']);
    // a stale output exits 1; an interrupted synth pending is a file-system error, exit 2
    const pending = check.stderr.includes('interrupted synth pending');
    if (stale || pending) expect(check.code, `${at}: ${check.stderr}`).toBe(pending ? 2 : 1);
    if (STEPS.includes(at as CommitStep) && at !== 'prepared') expect(check.stderr, at).toContain('interrupted synth pending');
    expect(snapshot(work), at).toBe(before);
  };
  /** The next synth, the CLI's or the pipeline's in process, restores the new tree and leaves only its state beside it. */
  const expectRepaired = async (work: string, at: string, next: Tree | undefined, by: 'cli' | 'in process') => {
    if (by === 'cli') expect((await run(work, ['synth'])).code, at).toBe(0);
    else await emitToDirectory([join(work, 'clustersets/fleet.yaml')], { out: join(work, 'dist'), full: true }, []);
    expect(same(tree(join(work, 'dist')), next), at).toBe(true);
    expectOnlyState(work, next, at, ['clustersets']);
  };

  // one repository for the steps' processes (one test each, so none runs long however loaded the machine)
  let repository: ReturnType<typeof setup> | undefined;
  test.each(STEPS)('paused at %s and killed: old or new; the next synth finishes or drops the commit', async (step) => {
    const { dir, old, next } = await (repository ??= setup(6));
    const work = await killed(dir, step);
    const out = join(work, 'dist');
    expectOldOrNew(tree(out), step, old, next);
    // what the killed process left, as the next run sees it (in process; the CLI's own check and synth below and in the soak tier)
    const before = snapshot(work);
    const check = emitToDirectory([join(work, 'clustersets/fleet.yaml')], { out, full: true, check: true }, []);
    if (step === 'prepared') expect((await check)?.stale.length, step).toBeGreaterThan(0);
    else await expect(check, step).rejects.toThrow(/interrupted synth pending/);
    expect(snapshot(work), step).toBe(before);
    await expectRepaired(work, step, next, 'in process');
  });

  test("killed in the middle of a run: the output is the old tree; the CLI's --check says so and writes nothing; the next synth restores the new tree", async () => {
    const { dir, old, next, changes } = await (repository ??= setup(6));
    const at = `change-${Math.floor(changes / 2)}`;
    const work = await killed(dir, at);
    expectOldOrNew(tree(join(work, 'dist')), at, old, next);
    await expectCliCheck(work, at, next);
    // in process (the CLI's own synth after a kill is the soak tier's, below)
    await expectRepaired(work, at, next, 'in process');
  });

  if (SOAK) {
    test("paused at each step of the commit and killed: old or new; the CLI's --check refuses while a commit is pending, its synth restores the new tree", async () => {
      const { dir, old, next } = await setup(6);
      for (const step of STEPS) {
        const work = await killed(dir, step);
        expectOldOrNew(tree(join(work, 'dist')), step, old, next);
        await expectCliCheck(work, step, next);
        await expectRepaired(work, step, next, 'cli');
      }
    });

    test("killed at changes spread over whole runs: old or new each time, and the CLI's next synth restores the new tree", async () => {
      const { dir, old, next, changes } = await setup(12);
      // the hook counts as the in-process faults do: the last change pauses, one past it never comes
      const past = join(tmp, `real-past-${n++}`);
      cpSync(dir, past, { recursive: true });
      expect((await run(past, ['synth'], `change-${changes}`)).code).toBe(0);
      for (const k of points(changes - 1, 8)) {
        const at = `change-${k}`;
        const work = await killed(dir, at);
        const now = tree(join(work, 'dist'));
        // a change of the commit may leave the new tree, or none between the two renames
        expect(same(now, old) || same(now, next) || now === undefined, at).toBe(true);
        await expectCliCheck(work, at, next);
        await expectRepaired(work, at, next, 'cli');
      }
    });
  }
});
