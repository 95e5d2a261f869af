import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import type { Diagnostic } from '../../src/diagnostics/diagnostic';
import { loadYaml, YAML_LIMITS } from '../../src/load/load-yaml';
import { source } from '../helpers/source';
import { LATEST } from '../helpers/releases';

function load(text: string) {
  const diagnostics: Diagnostic[] = [];
  const loaded = loadYaml('t.yaml', text, diagnostics);
  return { loaded, diagnostics: diagnostics.map((d) => ({ code: d.code, line: d.line, column: d.column })) };
}

const deepFlow = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;
// ten copies per level: 10^6 values from a few hundred bytes
const aliasBomb = source`
  a: &a [x, x, x, x, x, x, x, x, x, x]
  b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]
  c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]
  d: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]
  e: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d, *d]
  f: [*e, *e, *e, *e, *e, *e, *e, *e, *e, *e]`;

describe('loadYaml refuses broken or hostile input with a positioned diagnostic', () => {
  test.each([
    {
      name: 'duplicate key: at the repeat',
      text: source`
        spec:
          leader:
            clusterID: a
            clusterID: b`,
      expected: [{ code: 'yaml-syntax', line: 4, column: 5 }],
    },
    {
      name: 'duplicate key in a flow mapping',
      text: 'spec: { leader: { clusterID: a, clusterID: b } }\n',
      expected: [{ code: 'yaml-syntax', line: 1, column: 33 }],
    },
    {
      name: 'tab indentation',
      text: 'spec:\n  leader:\n\tclusterID: a\n',
      expected: [{ code: 'yaml-syntax', line: 3, column: 1 }],
    },
    {
      // the misread block moves later keys into a mapping that has them already: the tab is the
      // mistake, so no "map keys must be unique" comes with it (#49 item 12)
      name: 'tab indentation in a list item: the tab and its line, no duplicate key after it',
      text: readFileSync('clustersets/test-clusterset.yaml', 'utf8').replace('      serviceCIDR: 10.112.0.0/16', '\tserviceCIDR: 10.112.0.0/16'),
      expected: [
        { code: 'yaml-syntax', line: 24, column: 1 },
        { code: 'yaml-syntax', line: 24, column: 2 },
      ],
    },
    {
      name: 'two documents in one file',
      text: 'a: 1\n---\nb: 2\n',
      expected: [{ code: 'yaml-syntax', line: 2, column: 1 }],
    },
    { name: 'alias bomb', text: aliasBomb, expected: [{ code: 'yaml-limits', line: 1, column: 1 }] },
    {
      name: 'deep flow nesting: at the first bracket past the limit',
      text: `a: ${deepFlow(100)}\n`,
      expected: [{ code: 'yaml-limits', line: 1, column: 4 + YAML_LIMITS.maxDepth }],
    },
    {
      name: 'deep block nesting: at the first mapping past the limit',
      text: `${Array.from({ length: 80 }, (_, i) => `${' '.repeat(i * 2)}k:`).join('\n')} 1\n`,
      expected: [{ code: 'yaml-limits', line: 65, column: 129 }],
    },
    {
      name: 'oversize file',
      text: `a: "${'x'.repeat(YAML_LIMITS.maxBytes)}"\n`,
      expected: [{ code: 'yaml-limits', line: 1, column: 1 }],
    },
    {
      name: '__proto__ key: at the key',
      text: source`
        spec:
          antrea:
            __proto__: { version: ${LATEST} }`,
      expected: [{ code: 'yaml-limits', line: 3, column: 5 }],
    },
    { name: '__proto__ key, quoted, in a flow mapping', text: 'a: { "__proto__": 1 }\n', expected: [{ code: 'yaml-limits', line: 1, column: 6 }] },
    { name: 'constructor key', text: 'spec:\n  constructor: 1\n', expected: [{ code: 'yaml-limits', line: 2, column: 3 }] },
    {
      // regression: the apostrophe opened a "quoted" run in the nesting pre-check, the brackets
      // after it went uncounted, and the parser's stack overflow came out as yaml-syntax after a second
      name: 'deep flow nesting after an apostrophe in a plain scalar',
      text: `description: it's the leader\nb: ${deepFlow(100_000)}\n`,
      expected: [{ code: 'yaml-limits', line: 2, column: 4 + YAML_LIMITS.maxDepth }],
    },
    {
      name: 'deep compact block sequences overflowing the parser',
      text: `a:\n  ${'- '.repeat(30_000)}x\n`,
      expected: [{ code: 'yaml-limits', line: 2, column: 129 }],
    },
    // tags outside the JSON data model: cdk8s crashed on them, or agentConfig emptied them silently (#14 item 4)
    { name: '!!set: at the tagged node', text: 'spec:\n  policies: !!set { a, b }\n', expected: [{ code: 'yaml-syntax', line: 2, column: 13 }] },
    { name: '!!omap', text: 'a: !!omap [ x: 1, y: 2 ]\n', expected: [{ code: 'yaml-syntax', line: 1, column: 4 }] },
    { name: '!!pairs', text: 'a: !!pairs [ x: 1 ]\n', expected: [{ code: 'yaml-syntax', line: 1, column: 4 }] },
    { name: '!!timestamp', text: 'a: !!timestamp 2001-12-14\n', expected: [{ code: 'yaml-syntax', line: 1, column: 4 }] },
    { name: '!!binary', text: 'a: !!binary aGVsbG8=\n', expected: [{ code: 'yaml-syntax', line: 1, column: 4 }] },
    { name: 'a custom tag', text: 'a:\n  - !Ref x\n', expected: [{ code: 'yaml-syntax', line: 2, column: 5 }] },
    { name: 'a tag on a key', text: '!!binary aGVsbG8=: 1\n', expected: [{ code: 'yaml-syntax', line: 1, column: 1 }] },
    // one value larger than any object the API server stores (#14 item 5)
    {
      name: 'a string over the per-value limit: at the value',
      text: `a: 1\nb: "${'x'.repeat(YAML_LIMITS.maxStringBytes + 1)}"\n`,
      expected: [{ code: 'yaml-limits', line: 2, column: 4 }],
    },
    // amplification: 99 aliases to one 100 kB string are 10 MB of data from 100 kB of text (#14 item 5)
    {
      name: 'aliases multiplying a long string',
      text: `a: &s "${'x'.repeat(100_000)}"\nb: [${Array.from({ length: 99 }, () => '*s').join(', ')}]\n`,
      expected: [{ code: 'yaml-limits', line: 1, column: 1 }],
    },
  ])('$name', ({ text, expected }) => {
    const { loaded, diagnostics } = load(text);
    expect(loaded).toBeUndefined();
    expect(diagnostics).toEqual(expected);
  });

  test.each([
    { name: 'quotes and apostrophes in scalars', text: `a: "it's [not] {nested}"\nb: 'don''t'\nc: rock 'n' roll\nd: [x, 'y]', "z}"]\n` },
    { name: 'nesting at the limit', text: `a: ${deepFlow(YAML_LIMITS.maxDepth - 1)}\n` },
    { name: 'a few harmless aliases', text: 'a: &a [1, 2]\nb: *a\nc: *a\n' },
    { name: 'CRLF line ends', text: "a:\r\n  - 'x'\r\n  - [\"y\", 'z']\r\n" },
    { name: 'the JSON tags, spelled out', text: 'a: !!str 1\nb: !!int "2"\nc: !!map { d: !!seq [ !!bool true, !!null null, !!float 1.5 ] }\n' },
  ])('loads $name', ({ text }) => {
    const { loaded, diagnostics } = load(text);
    expect(diagnostics).toEqual([]);
    expect(loaded).toBeDefined();
  });
});

// the size once aliases are expanded is counted on the tree's walk where there is no alias
// (expandedSize where there is one): each node 1, a scalar 1 and its value's length as a string.
// The sizes are those expandedSize gave every document before the walk counted them.
describe('the expanded size, with and without aliases, at its limit', () => {
  test.each([
    // the map 1, the key 1 + 1, the list 1, three nulls 1 + 4 each
    { name: 'no alias', text: 'a: [~, ~, ~]\n', size: 19 },
    { name: 'numbers, booleans, an empty string', text: 'a: 1e3\nb: [true, 0x10, "", null]\nc: {d: e}\n', size: 32 },
    { name: 'an empty key and a pair in a list', text: '? \n: [x: 1]\n', size: 12 },
    // the list's size counted again where the alias is
    { name: 'an alias', text: 'a: &n [~, ~]\nb: *n\n', size: 27 },
  ])('$name: refused past its size, loaded at it', ({ text, size }) => {
    const at = (maxExpandedBytes: number) => {
      const diagnostics: Diagnostic[] = [];
      loadYaml('t.yaml', text, diagnostics, { ...YAML_LIMITS, maxExpandedBytes });
      return diagnostics.map((d) => d.message);
    };
    expect(at(size)).toEqual([]);
    expect(at(size - 1)).toEqual([`the data is larger than ${size - 1} bytes once its aliases are expanded`]);
  });
});
