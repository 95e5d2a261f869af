import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { parse } from 'yaml';
import { SOAK, SOAK_VARIABLE, soakRows } from '../helpers/soak';

describe('the soak tier', () => {
  test('a table runs every row in the soak tier, its representatives in npm test', () => {
    const rows = ['a', 'b', 'c', 'd'];
    expect(soakRows(rows, (_, i) => i % 2 === 0, true)).toEqual(rows);
    expect(soakRows(rows, (_, i) => i % 2 === 0, false)).toEqual(['a', 'c']);
  });

  test('a table with no representative is refused: npm test would prove nothing of it', () => {
    expect(() => soakRows(['a'], () => false, false)).toThrow(/no representative/);
  });

  test('the tier is the one variable npm run test:soak sets', () => {
    expect(SOAK).toBe(process.env[SOAK_VARIABLE] === '1');
  });

  // what npm test leaves out runs only here: CI must run it, and fail when the script is missing
  test('CI runs it after npm run check: .ci/run on its first Node line, the test workflow on the first of its matrix', () => {
    const ciRun = readFileSync('.ci/run', 'utf8').split('\n');
    const suite = ciRun.findIndex((l) => /^\s*npm run check$/.test(l));
    const soak = ciRun.findIndex((l) => /\bnpm run test:soak\b/.test(l));
    expect(suite).toBeGreaterThanOrEqual(0);
    expect(soak).toBeGreaterThan(suite);
    expect(ciRun[soak]).toMatch(/^\s*if \[ -z "\$first" \]; then npm run test:soak; fi$/);

    type Step = { run?: string; if?: string };
    const workflow = parse(readFileSync('.github/workflows/test.yml', 'utf8')) as {
      jobs: { test: { strategy: { matrix: { node: number[] } }; steps: Step[] } };
    };
    const { steps, strategy } = workflow.jobs.test;
    const at = (run: string) => steps.findIndex((s) => s.run === run);
    expect(at('npm run check')).toBeGreaterThanOrEqual(0);
    expect(at('npm run test:soak')).toBeGreaterThan(at('npm run check'));
    expect(steps[at('npm run test:soak')]!.if).toBe(`matrix.node == ${String(strategy.matrix.node[0])}`);
  });

  // #54: npm test is the suite alone; the static checks have the ecosystem's names, and
  // `check` runs them beside the suite (scripts/test.mjs --check), which is what CI runs above
  test('npm test is the suite; typecheck, lint and format:check are their own scripts; check runs all', () => {
    const { scripts } = JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: Record<string, string> };
    expect(scripts.test).toBe('node scripts/test.mjs');
    expect(scripts.check).toBe('node scripts/test.mjs --check');
    expect(scripts.typecheck).toMatch(/^tsc --noEmit\b/);
    expect(scripts.lint).toBe('node scripts/lint.mjs');
    expect(scripts['format:check']).toMatch(/^prettier --check\b/);
    const runner = readFileSync('scripts/test.mjs', 'utf8');
    // the check mode's static checks: the type check and lint on one program, and the format check
    expect(runner).toContain(`['scripts/lint.mjs', '--types']`);
    expect(runner).toContain(`npm('format:check')`);
  });
});
