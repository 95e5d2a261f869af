import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { haveKubectl } from '../helpers/kustomize';
import { SOAK, SOAK_VARIABLE } from '../helpers/soak';
import { TOOLS_VARIABLE } from '../helpers/tools';

const ROOT = resolve(import.meta.dirname, '../..');

// #49 item 17: the tests that run kubectl's kustomize checked for kubectl on their own and skipped
// whatever the tools gate said, so CI (ANTREA_CLUSTERSET_TOOLS=required) without kubectl went
// green with them skipped. They ask the gate now; this holds them to it.

test('without kubectl, the gate skips (saying so), or fails when tools are required', () => {
  expect(haveKubectl('gate row', {}, true)).toBe(true);
  expect(haveKubectl('gate row', {}, false)).toBe(false);
  expect(() => haveKubectl('gate row', { [TOOLS_VARIABLE]: 'required' }, false)).toThrow(/needs kubectl.*required/);
});

/** Test files that run kubectl's kustomize (the real one: the stubs of other tests are put on PATH by the test itself). */
const kustomizeFiles = () =>
  readdirSync(join(ROOT, 'test'), { recursive: true, encoding: 'utf8' })
    .map((f) => `test/${f.split('\\').join('/')}`)
    .filter((f) => f.endsWith('.test.ts') && /'kubectl', \['kustomize'|kustomizeFailures\(/.test(readFileSync(join(ROOT, f), 'utf8')));

test('every test file that runs kubectl kustomize asks the gate, and none probes kubectl itself', () => {
  const files = kustomizeFiles();
  expect(files).toEqual(expect.arrayContaining(['test/delivery/kustomize-build.test.ts', 'test/hostile/accepted-then-broken.test.ts']));
  for (const f of files) {
    const text = readFileSync(join(ROOT, f), 'utf8');
    expect(text, f).toMatch(/haveKubectl\('/);
    expect(text, f).not.toMatch(/'kubectl', \['version'/);
  }
});

// two vitest runs of those files (collection only, ~10 s each, outside the soak tier as npm test collects them): in the soak tier, which .ci/run runs
test.runIf(SOAK)(
  'under ANTREA_CLUSTERSET_TOOLS=required, a PATH whose kubectl does not answer fails those files instead of skipping them',
  () => {
    // a kubectl that is not one (exits 127, as a shell does for a missing command) first on PATH
    const bin = mkdtempSync(join(tmpdir(), 'tools-gate-'));
    afterAll(() => rmSync(bin, { recursive: true, force: true }));
    writeFileSync(join(bin, 'kubectl'), '#!/bin/sh\nexit 127\n');
    chmodSync(join(bin, 'kubectl'), 0o755);
    // collected, not run: the gate decides at collection; no test name matches the pattern
    const run = (env: NodeJS.ProcessEnv) => {
      const r = spawnSync(
        process.execPath,
        [join(ROOT, 'node_modules/vitest/vitest.mjs'), 'run', '--passWithNoTests', '-t', '^collect only$', ...kustomizeFiles()],
        {
          cwd: ROOT,
          encoding: 'utf8',
          env: { ...process.env, PATH: `${bin}:${String(process.env.PATH)}`, NO_COLOR: '1', [SOAK_VARIABLE]: '', ...env },
        },
      );
      return { status: r.status, text: `${r.stdout}${r.stderr}`.replace(/\u001b\[[0-9;]*m/g, '') };
    };
    const required = run({ [TOOLS_VARIABLE]: 'required' });
    expect(required.status, required.text).not.toBe(0);
    for (const f of kustomizeFiles()) expect(required.text).toContain(`${f} needs kubectl`);
    const optional = run({ [TOOLS_VARIABLE]: '' });
    expect(optional.status, optional.text).toBe(0);
    for (const f of kustomizeFiles()) expect(optional.text).toContain(`[${f}] skipped: kubectl`);
  },
  120_000,
);
