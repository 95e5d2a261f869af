import { readdirSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The longest files (the ten slowest the run prints at its end: npm pack and install, the kill -9
 * drills, the engine replay's tables, kustomize runs), started first so they overlap the rest of
 * the suite. vitest orders by recorded duration only once it has a cache; a fresh clone (CI) has
 * none, and its fallback (larger files first) started the package test half-way through, where
 * it ended the run alone. The size fallback cannot see work a file does as it is collected:
 * nodenext's type check of the package and the layer lint's program run at their top level, in
 * small files that it started last, where each ended the run with one worker idle for seconds.
 */
const SLOW_FIRST = [
  'test/output/kill-9.test.ts',
  'test/output/crash-safety.test.ts',
  'test/examples/nodenext.test.ts',
  'test/engine-replay/first-install.test.ts',
  'test/package/package.test.ts',
  'test/output/output-incremental.test.ts',
  'test/live/round-trip.test.ts',
  'test/engine-replay/planned-changes.test.ts',
  'test/delivery/kustomize-build.test.ts',
  'test/verify/verifications.test.ts',
  'test/lint/layers.test.ts',
];

class SlowFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (f: TestSpecification) => SLOW_FIRST.findIndex((path) => f.moduleId.endsWith(path));
    const sorted = await super.sort(files);
    return [...sorted.filter((f) => rank(f) >= 0).sort((a, b) => rank(a) - rank(b)), ...sorted.filter((f) => rank(f) < 0)];
  }
}

const ROOT = fileURLToPath(new URL('.', import.meta.url));
/** The soak tier (`npm run test:soak`, test/helpers/soak.ts): the same switch the test files read. */
const SOAK = process.env.CLUSTERSET_SOAK === '1';

/**
 * The soak tier's files: those that import test/helpers/soak.ts, or read its variable themselves,
 * for their exhaustive part (test/setup/tiers.test.ts holds this list to the files that do).
 */
function soakFiles(): string[] {
  return readdirSync(`${ROOT}test`, { recursive: true, encoding: 'utf8' })
    .map((f) => `test/${f.replaceAll('\\', '/')}`)
    .filter((f) => f.endsWith('.test.ts') && /from '(?:\.\.\/)+helpers\/soak'|\bCLUSTERSET_SOAK\b/.test(readFileSync(`${ROOT}${f}`, 'utf8')));
}

export default defineConfig({
  // definitions under test import the package by name: the sources, not a build in lib/
  resolve: { alias: { 'antrea-clusterset': fileURLToPath(new URL('./src/index.ts', import.meta.url)) } },
  test: {
    include: SOAK ? soakFiles() : ['test/**/*.test.ts'],
    // temporary trees in memory where the machine allows (see the file)
    // then the JavaScript build the tests' CLI processes run (see the file)
    globalSetup: ['test/setup/scratch-in-memory.ts', 'test/setup/built-cli.ts'],
    pool: 'forks',
    sequence: { sequencer: SlowFirst },
    // the ten slowest files after the summary, so a file that grows is seen when it does
    reporters: ['default', './test/setup/slowest-files.ts'],
    // the suite allocates much short-lived data (parsed YAML, objects the replay applies): a larger
    // young generation than V8's default scavenges less often; 64 MB took about 10 % less CPU than
    // the default, 32 and 128 MB, in paired runs of replay, live and output files with one worker
    execArgv: ['--max-semi-space-size=64'],
    // vitest's default is one worker fewer than the cores: on a two-core machine that is one worker
    // for a suite that is CPU-bound or waiting on child processes; use every core
    maxWorkers: availableParallelism(),
    // test files share their worker's modules, so the compiler, its schemas and validators load
    // once per worker instead of once per file (a third of the suite's time went to imports);
    // tests must therefore restore any global they change (process.env, console spies)
    isolate: false,
    // a test of npm test takes a few seconds at most on two quiet cores (the slowest are printed at
    // the end): half a minute finds a hang soon and leaves room for a loaded machine. The soak
    // tier's drills run for minutes
    testTimeout: SOAK ? 600_000 : 30_000,
  },
});
