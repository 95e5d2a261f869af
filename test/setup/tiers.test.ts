import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { expect, test } from 'vitest';
import { SOAK_VARIABLE } from '../helpers/soak';

const ROOT = resolve(import.meta.dirname, '../..');

// The soak tier runs the test files that import test/helpers/soak.ts or read its variable
// (vitest.config.ts): a file with its exhaustive part behind the switch that the soak run did
// not collect would run that part nowhere, in npm test or in CI. Asked of vitest itself, as
// `npm run test:soak` runs it.
test('the soak tier collects exactly the test files that use the tier switch', () => {
  const run = spawnSync(process.execPath, [join(ROOT, 'node_modules/vitest/vitest.mjs'), 'list', '--filesOnly', '--json'], {
    cwd: ROOT,
    encoding: 'utf8',
    env: { ...process.env, [SOAK_VARIABLE]: '1' },
  });
  expect(run.status, run.stderr).toBe(0);
  const listed = (JSON.parse(run.stdout) as { file: string }[]).map((f) => relative(ROOT, f.file).split('\\').join('/')).sort();
  const using = readdirSync(join(ROOT, 'test'), { recursive: true, encoding: 'utf8' })
    .map((f) => `test/${f.split('\\').join('/')}`)
    .filter((f) => f.endsWith('.test.ts') && /helpers\/soak|CLUSTERSET_SOAK/.test(readFileSync(join(ROOT, f), 'utf8')))
    .sort();
  expect(listed).toEqual(using);
  expect(listed).toEqual(expect.arrayContaining(['test/output/crash-safety.test.ts', 'test/output/kill-9.test.ts', 'test/package/package.test.ts']));
});
