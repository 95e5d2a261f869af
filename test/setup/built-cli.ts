import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { TestProject } from 'vitest/node';

// The tests that need a real process (a kill -9) run the CLI as the package
// runs it: a JavaScript build of the sources, made once per run into the scratch space (the
// checkout's lib/ is never touched). Run from the checkout, bin/clusterset.mjs would transpile
// the whole compiler through tsx in every process: a second of CPU each. The checkout's own bin
// (the tsx path included) stays covered by test/cli/cli.test.ts.
export const BUILT_CLI_ENV = 'CLUSTERSET_TEST_BIN';

const ROOT = resolve(import.meta.dirname, '../..');

export default function setup(project: TestProject): () => void {
  // after scratch-in-memory.ts, so TMPDIR is already the run's scratch directory
  const pkg = mkdtempSync(join(tmpdir(), 'built-cli-'));
  mkdirSync(join(pkg, 'bin'));
  copyFileSync(join(ROOT, 'bin/clusterset.mjs'), join(pkg, 'bin/clusterset.mjs'));
  // the compiler reads its name and version from package.json beside lib/
  copyFileSync(join(ROOT, 'package.json'), join(pkg, 'package.json'));
  symlinkSync(join(ROOT, 'node_modules'), join(pkg, 'node_modules'), 'dir');
  const build = () => {
    execFileSync(process.execPath, [join(ROOT, 'scripts/build.mjs'), '--javascript-only', '--out', join(pkg, 'lib')], { stdio: 'inherit' });
  };
  build();
  // watch mode: a rerun after an edit runs the edited sources
  project.onTestsRerun(build);
  const previous = process.env[BUILT_CLI_ENV];
  process.env[BUILT_CLI_ENV] = join(pkg, 'bin/clusterset.mjs');
  // the CLI keeps Node's compile cache in the user's cache folder (bin/clusterset.mjs): the run's
  // processes share one of the run's own, and the developer's home is not written
  const previousCache = process.env.XDG_CACHE_HOME;
  process.env.XDG_CACHE_HOME = join(pkg, 'cache');
  return () => {
    if (previous === undefined) delete process.env[BUILT_CLI_ENV];
    else process.env[BUILT_CLI_ENV] = previous;
    if (previousCache === undefined) delete process.env.XDG_CACHE_HOME;
    else process.env.XDG_CACHE_HOME = previousCache;
    rmSync(pkg, { recursive: true, force: true });
  };
}
