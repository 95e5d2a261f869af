import { describe, expect, test } from 'vitest';
import { compile } from '../../src/compile';

describe('TypeScript definitions', () => {
  test('a typed definition goes through the same schema and rules as YAML', async () => {
    const result = await compile({ files: ['test/fixtures/typescript/ts-clusterset.ts'], validateOnly: true });
    expect(result.diagnostics).toEqual([]);
  });

  test('positions point into the object literal, through a local const and an `as` cast', async () => {
    const result = await compile({ files: ['test/fixtures/typescript/ts-typo.ts'], validateOnly: true });
    expect(result.diagnostics).toMatchObject([
      {
        code: 'schema',
        file: 'test/fixtures/typescript/ts-typo.ts',
        line: 12,
        column: 28,
        path: ['spec', 'clusters', 1, 'podCIDR'],
        hint: 'did you mean "podCIDRs"?',
      },
    ]);
  });

  test('a module that fails to evaluate is a diagnostic, not a crash', async () => {
    const result = await compile({ files: ['test/fixtures/typescript/broken.ts'], validateOnly: true });
    expect(result.diagnostics).toMatchObject([{ code: 'typescript-evaluation', line: 1, column: 1 }]);
  });
});
