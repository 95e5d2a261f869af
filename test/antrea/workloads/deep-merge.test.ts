import { describe, expect, test } from 'vitest';
import { deepMerge, mergeLayers } from '../../../src/antrea/workloads/deep-merge';

describe('deepMerge', () => {
  test.each<[string, unknown, unknown, unknown]>([
    ['maps merge key by key', { a: 1, b: { c: 2, d: 3 } }, { b: { d: 4, e: 5 } }, { a: 1, b: { c: 2, d: 4, e: 5 } }],
    ['arrays replace, never concatenate', { a: [1, 2, 3] }, { a: [4] }, { a: [4] }],
    ['scalars replace', { a: 'encap' }, { a: 'noEncap' }, { a: 'noEncap' }],
    ['null replaces', { a: { b: 1 } }, { a: null }, { a: null }],
    ['a map fills a null section', { featureGates: null }, { featureGates: { X: true } }, { featureGates: { X: true } }],
    ['a map replaces a scalar', { a: 1 }, { a: { b: 2 } }, { a: { b: 2 } }],
    ['undefined keeps the base value', { a: 1, b: 2 }, { a: undefined }, { a: 1, b: 2 }],
    ['an undefined override keeps the base', { a: 1 }, undefined, { a: 1 }],
    ['new keys are added', {}, { a: { b: [1] } }, { a: { b: [1] } }],
    ['false and 0 and empty string are values', { a: true, b: 1, c: 'x' }, { a: false, b: 0, c: '' }, { a: false, b: 0, c: '' }],
  ])('%s', (_, base, override, expected) => {
    expect(deepMerge(base, override)).toEqual(expected);
  });

  test('inputs are not mutated and the result shares nothing with them', () => {
    const base = { a: { b: [1] } };
    const override = { a: { c: { d: 1 } } };
    const out = deepMerge(base, override) as { a: { b: number[]; c: { d: number } } };
    out.a.b.push(2);
    out.a.c.d = 2;
    expect(base).toEqual({ a: { b: [1] } });
    expect(override).toEqual({ a: { c: { d: 1 } } });
  });

  test('prototype keys from parsed input are dropped', () => {
    const hostile: unknown = JSON.parse('{"__proto__": {"polluted": true}, "constructor": {"x": 1}, "ok": 1}');
    const out = deepMerge({ a: 1 }, hostile) as Record<string, unknown>;
    expect(out).toEqual({ a: 1, ok: 1 });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  test('mergeLayers applies layers left to right', () => {
    expect(mergeLayers({ a: 1, b: 1 }, { a: 2 }, undefined, { a: 3, c: 3 })).toEqual({ a: 3, b: 1, c: 3 });
  });
});
