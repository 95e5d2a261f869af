import { spawn } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { stringify } from 'yaml';
import { fleet } from '../../bench/fleet';
import type { CommitStep } from '../../src/output/file-system-ops';
import { CLI_BIN } from '../helpers/cli-bin';
import { runCli } from '../helpers/run-cli';
import { SOAK, soakRows } from '../helpers/soak';
import { outputToDirectory, expectOnlyState, faulty, points, same, snapshot, STEPS, tree, type Tree } from './crash-drill';
import { removeTree } from '../helpers/remove-tree';

// kill -9 of real processes of the CLI (crash-safety.test.ts states the invariant and faults the
// writer in process), paused under the writer's test hook (src/output/file-system-ops.ts `pauseAt`)
// at each step of the commit and before changes spread over a whole run: kills at named points,
// never after a time, so the drills hold however loaded the machine is. `npm test` kills one
// process, at a step of the commit (`REPRESENTATIVE`: the old tree with a commit pending, which
// the next run must finish; the lock a dead process holds); crash-safety.test.ts faults every step
// in process, `prepared`, `moved-old` (no output between the renames) and `moved-new` (the new
// tree) included, and after the first, middle and last change of five runs. The soak tier
// (test/helpers/soak.ts) kills a process mid-run and at every step, at changes spread over a whole
// run, and checks and repairs each kill through the CLI's processes. Each process is a second of
// CPU: the checks and repairs after the kill in npm test run in process (the pipeline's, and the
// CLI's `main` for --check: run-cli.ts).

const tmp = mkdtempSync(join(tmpdir(), 'clusterset-kill-'));
afterAll(() => removeTree(tmp));
let n = 0;

describe('kill -9 of a real process', () => {
  /** A repository whose dist/ the pipeline wrote from fleet(size), and whose definition then changed; the new tree, from a copy. */
  const setup = async (size: number) => {
    const dir = join(tmp, `real-${n++}`);
    const definition = join(dir, 'clustersets/fleet.yaml');
    mkdirSync(join(dir, 'clustersets'), { recursive: true });
    writeFileSync(definition, stringify(fleet(size)));
    await outputToDirectory([definition], { out: join(dir, 'dist'), full: true }, []);
    const old = tree(join(dir, 'dist'));
    writeFileSync(definition, stringify(fleet(size - 3, { changedMember: 2 })));
    const reference = join(tmp, `real-ref-${n++}`);
    cpSync(dir, reference, { recursive: true });
    // how many changes a whole run makes, counted as the writer's hook counts them
    const counter = faulty(Number.MAX_SAFE_INTEGER);
    await outputToDirectory([join(reference, 'clustersets/fleet.yaml')], { out: join(reference, 'dist'), full: true, fs: counter }, []);
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
  const expectCliCheck = async (work: string, at: string, next: Tree | undefined, by: 'cli' | 'in process') => {
    const before = snapshot(work);
    const stale = !same(tree(join(work, 'dist')), next);
    const check =
      by === 'cli'
        ? await run(work, ['synth', '--check'])
        : await runCli(['synth', '--check'], { cwd: work }).then((r) => ({ code: r.status, stderr: r.stderr }));
    // a stale output exits 1; an interrupted synth pending is a file-system error, exit 2
    const pending = check.stderr.includes('interrupted synth pending');
    if (stale || pending) expect(check.code, `${at}: ${check.stderr}`).toBe(pending ? 2 : 1);
    if (STEPS.includes(at as CommitStep) && at !== 'prepared') expect(check.stderr, at).toContain('interrupted synth pending');
    expect(snapshot(work), at).toBe(before);
  };
  /** The next synth, the CLI's or the pipeline's in process, restores the new tree and leaves only its state beside it. */
  const expectRepaired = async (work: string, at: string, next: Tree | undefined, by: 'cli' | 'in process') => {
    if (by === 'cli') expect((await run(work, ['synth'])).code, at).toBe(0);
    else await outputToDirectory([join(work, 'clustersets/fleet.yaml')], { out: join(work, 'dist'), full: true }, []);
    expect(same(tree(join(work, 'dist')), next), at).toBe(true);
    expectOnlyState(work, next, at, ['clustersets']);
  };

  // one repository for the steps' processes (one test each, so none runs long however loaded the machine)
  let repository: ReturnType<typeof setup> | undefined;
  /**
   * The step of the commit killed in npm test: `committed`, the old tree with a commit pending,
   * the one outcome where the next synth must finish what the killed one recorded. The old tree
   * without a pending commit is the kill mid-run's below (as `prepared` leaves it); the new tree
   * (moved-new, kept-spare, recorded) and no output between the renames (moved-old) are faulted
   * in process in npm test (crash-safety.test.ts, every step, with these expectations) and killed
   * here in the soak tier: the same pause hook and the same kill as the row kept.
   */
  const REPRESENTATIVE: readonly CommitStep[] = ['committed'];
  test.each(soakRows(STEPS, (step) => REPRESENTATIVE.includes(step)))(
    'paused at %s and killed: old or new; the next synth finishes or drops the commit',
    async (step) => {
      const { dir, old, next } = await (repository ??= setup(6));
      const work = await killed(dir, step);
      const out = join(work, 'dist');
      expectOldOrNew(tree(out), step, old, next);
      // what the killed process left, as the next run sees it (in process; the CLI's own check and synth below and in the soak tier)
      const before = snapshot(work);
      const check = outputToDirectory([join(work, 'clustersets/fleet.yaml')], { out, full: true, check: true }, []);
      if (step === 'prepared') expect((await check)?.stale.length, step).toBeGreaterThan(0);
      else await expect(check, step).rejects.toThrow(/interrupted synth pending/);
      expect(snapshot(work), step).toBe(before);
      // and the CLI's --check on what the killed process left: its exit code and words, nothing written
      await expectCliCheck(work, step, next, 'in process');
      await expectRepaired(work, step, next, 'in process');
    },
  );

  if (SOAK) {
    // the old tree without a commit pending (as `prepared` leaves it): in npm test, faulted in
    // process after the first, middle and last change (crash-safety.test.ts)
    test("killed in the middle of a run: the output is the old tree; the CLI's --check says so and writes nothing; the next synth restores the new tree", async () => {
      const { dir, old, next, changes } = await (repository ??= setup(6));
      const at = `change-${Math.floor(changes / 2)}`;
      const work = await killed(dir, at);
      expectOldOrNew(tree(join(work, 'dist')), at, old, next);
      await expectCliCheck(work, at, next, 'in process');
      // in process (the CLI's own synth after a kill is the soak tier's, below)
      await expectRepaired(work, at, next, 'in process');
    });

    test("paused at each step of the commit and killed: old or new; the CLI's --check refuses while a commit is pending, its synth restores the new tree", async () => {
      const { dir, old, next } = await setup(6);
      for (const step of STEPS) {
        const work = await killed(dir, step);
        expectOldOrNew(tree(join(work, 'dist')), step, old, next);
        await expectCliCheck(work, step, next, 'cli');
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
        await expectCliCheck(work, at, next, 'cli');
        await expectRepaired(work, at, next, 'cli');
      }
    });
  }
});
