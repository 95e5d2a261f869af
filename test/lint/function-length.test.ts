import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Linter } from 'eslint';
import tseslint from 'typescript-eslint';
import { expect, test } from 'vitest';
// @ts-expect-error: a plain ESM script without declarations
import config, { FUNCTION_LINES } from '../../eslint.config.mjs';

// #53 item 5: functions a reader can hold. The repository's lint holds src/ to FUNCTION_LINES; a
// function one line longer is refused, one at the bound is not, and blank lines and comments are
// not counted (a function's why stays welcome)
const ROOT = join(import.meta.dirname, '../..');

function lint(code: string): string[] {
  const linter = new Linter({ cwd: ROOT });
  return linter
    .verify(code, [{ files: ['**/*.ts'], languageOptions: { parser: tseslint.parser }, rules: { 'max-lines-per-function': ['error', FUNCTION_LINES] } }], {
      filename: join(ROOT, 'src', 'any-source.ts'),
    })
    .map((m) => m.ruleId ?? m.message);
}

/** A function of `lines` lines in all: its two braces and `lines - 2` statements, with blank lines and comments between. */
const functionOf = (lines: number, extra = ''): string =>
  `export function f(): number {\n  let n = 0;\n${Array.from({ length: lines - 3 }, () => `  n++;\n${extra}`).join('')}}\n`;

test.each([
  ['80 lines', 80, '', []],
  ['81 lines', 81, '', ['max-lines-per-function']],
  ['80 lines of code with blank lines and comments between', 80, '\n  // why\n', []],
])('a function of %s', (_, lines, extra, expected) => {
  expect(lint(functionOf(lines, extra))).toEqual(expected);
});

test('the repository config holds every source file to it', () => {
  const entries = config as { files?: string[]; rules?: Record<string, unknown> }[];
  expect(entries.find((e) => e.rules?.['max-lines-per-function'] !== undefined)).toEqual({
    files: ['src/**/*.ts'],
    rules: { 'max-lines-per-function': ['error', FUNCTION_LINES] },
  });
});

test('no function is left longer (no disable of the rule in src/)', () => {
  const sources = readdirSync(join(ROOT, 'src'), { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts'));
  const disables = sources.flatMap((f) =>
    readFileSync(join(ROOT, 'src', f), 'utf8')
      .split('\n')
      .filter((l) => l.includes('max-lines-per-function'))
      .map(() => f),
  );
  expect(disables).toEqual([]);
});
