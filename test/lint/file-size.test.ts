import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';

// #31: one concept per file; a source file past 400 lines holds more than one (split it by concept)
const MAX_LINES = 400;
const sources = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : []));

it(`no file in src/ has more than ${MAX_LINES} lines`, () => {
  const long = sources('src')
    .map((file) => ({ file, lines: readFileSync(file, 'utf8').split('\n').length - 1 }))
    .filter((f) => f.lines > MAX_LINES);
  expect(long).toEqual([]);
});

// #53 item 5: a test file past 400 lines tests more than one thing (split it by concern; a table or
// a model the tests share may be longer: test/policy/scenarios.ts, the replay's controllers)
it(`no test file has more than ${MAX_LINES} lines`, () => {
  const long = sources('test')
    .filter((file) => file.endsWith('.test.ts'))
    .map((file) => ({ file, lines: readFileSync(file, 'utf8').split('\n').length - 1 }))
    .filter((f) => f.lines > MAX_LINES);
  expect(long).toEqual([]);
});
