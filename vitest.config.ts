import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  // definitions under test import the package by name: the sources, not a build in lib/
  resolve: { alias: { 'antrea-clusterset': fileURLToPath(new URL('./src/index.ts', import.meta.url)) } },
  test: {
    include: ['test/**/*.test.ts'],
    // temporary trees in memory where the machine allows (see the file)
    // then the JavaScript build the tests' CLI processes run (see the file)
    globalSetup: ['test/setup/scratch-in-memory.ts', 'test/setup/compiled-cli.ts'],
    pool: 'forks',
    // vitest's default is one worker fewer than the cores: on a two-core machine that is one worker
    // for a suite that is CPU-bound or waiting on child processes; use every core
    maxWorkers: availableParallelism(),
    // test files share their worker's modules, so the compiler, its schemas and validators load
    // once per worker instead of once per file (a third of the suite's time went to imports);
    // tests must therefore restore any global they change (process.env, console spies)
    isolate: false,
    testTimeout: 60_000,
  },
});
