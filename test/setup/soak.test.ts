import { describe, expect, test } from 'vitest';
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
});
