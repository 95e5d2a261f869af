import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, test } from 'vitest';
import type { TestModule } from 'vitest/node';
import { fileTimes, renderSlowest } from './slowest-files';

const VITEST = resolve(import.meta.dirname, '../../node_modules/vitest/vitest.mjs');
const REPORTER = resolve(import.meta.dirname, 'slowest-files.ts');

/** What the reporter reads of a test module. */
const module = (relativeModuleId: string, ms: { setup?: number; collect?: number; tests?: number }) =>
  ({
    relativeModuleId,
    diagnostic: () => ({ setupDuration: ms.setup ?? 0, collectDuration: ms.collect ?? 0, duration: ms.tests ?? 0 }),
  }) as unknown as TestModule;

describe('the slowest test files', () => {
  test("a file's time is its setup, its import and suite callbacks, and its tests", () => {
    expect(fileTimes([module('test/a.test.ts', { setup: 100, collect: 2400, tests: 500 })])).toEqual([{ file: 'test/a.test.ts', seconds: 3 }]);
  });

  test('the ten slowest, slowest first, ties by path, under the sum over every file', () => {
    const times = Array.from({ length: 12 }, (_, i) => ({ file: `test/f${String(i).padStart(2, '0')}.test.ts`, seconds: i === 3 ? 40 : i % 2 }));
    expect(renderSlowest(times).split('\n')).toEqual([
      'slowest 10 of 12 test files (45.0 s summed over the files):',
      '  40.0 s  test/f03.test.ts',
      ...['01', '05', '07', '09', '11'].map((i) => `   1.0 s  test/f${i}.test.ts`),
      ...['00', '02', '04', '06'].map((i) => `   0.0 s  test/f${i}.test.ts`),
    ]);
  });

  test('fewer files than ten: all of them', () => {
    expect(
      renderSlowest([
        { file: 'test/only.test.ts', seconds: 0.25 },
        { file: 'test/b.test.ts', seconds: 1.5 },
      ]),
    ).toBe('slowest 2 of 2 test files (1.8 s summed over the files):\n  1.5 s  test/b.test.ts\n  0.3 s  test/only.test.ts');
  });
});

describe('as vitest runs it', () => {
  // the reporter reads vitest's own objects (its reporter API): a run of two files of its own
  test('a run of the suite ends with its files, slowest first', () => {
    const root = mkdtempSync(join(tmpdir(), 'slowest-files-'));
    try {
      for (const name of ['one', 'two']) writeFileSync(join(root, `${name}.test.ts`), `import { test } from 'vitest';\ntest('${name}', () => {});\n`);
      // one worker for both files, as the suite's own config shares a worker's modules (isolate:
      // false): a third less CPU than a process per file, and the reporter reads the same objects
      const run = spawnSync(process.execPath, [VITEST, 'run', '--root', root, '--reporter', REPORTER, '--maxWorkers=1', '--no-isolate'], {
        encoding: 'utf8',
        env: { ...process.env, NO_COLOR: '1' },
      });
      expect(run.status, run.stderr).toBe(0);
      const report = /^slowest 2 of 2 test files \(([\d.]+) s summed over the files\):\n {2}([\d.]+) s {2}(\S+)\n {2}([\d.]+) s {2}(\S+)\n/m.exec(run.stdout);
      expect(report, run.stdout).not.toBeNull();
      const [, , first, firstFile, second, secondFile] = report!;
      expect([firstFile, secondFile].sort()).toEqual(['one.test.ts', 'two.test.ts']);
      expect(Number(first)).toBeGreaterThanOrEqual(Number(second));
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
