import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import type { Diagnostic } from '../../src/diagnostics/diagnostic';
import { render } from '../../src/diagnostics/render';
import { loadYaml } from '../../src/load/load-yaml';
import { parseClusterSet } from '../../src/model/parse-clusterset';
import { runRules } from '../../src/validate/run-rules';
import { notGatewayHa } from '../helpers/gateway-ha';

/** The field report's definition with one edit: the user's mistake, where the intent is clear. */
const demo = readFileSync('clustersets/demo-clusterset.yaml', 'utf8');
/** the release the example names, without its `v` */
const demoRelease = /^ {4}version: v(\S+)$/m.exec(demo)![1]!;

function check(text: string) {
  const diagnostics: Diagnostic[] = [];
  const source = loadYaml('demo.yaml', text, diagnostics);
  const parsed = source && parseClusterSet(source, diagnostics);
  if (parsed) runRules(parsed, diagnostics);
  // the demo's members have one Gateway candidate each: gateway-ha's warnings are not this test's (#51)
  const shown = notGatewayHa(diagnostics);
  return { diagnostics: shown, text: render('text', shown, new Map([['demo.yaml', text]])) };
}

const cases: { name: string; edit: (t: string) => string; code: string; line: number; column: number; hint: RegExp }[] = [
  {
    name: 'a Gateway written as its Node name',
    edit: (t) => t.replace('        - node: cl3-node1', '        - cl3-node1'),
    code: 'schema',
    line: 34,
    column: 11,
    hint: /write \{ node: cl3-node1 \}/,
  },
  {
    name: 'a release without its v',
    edit: (t) => t.replace(`version: v${demoRelease}`, `version: ${demoRelease}`),
    code: 'unsupported-antrea-version',
    line: 9,
    column: 14,
    hint: new RegExp(`did you mean "v${demoRelease.replaceAll('.', '\\.')}"\\?`),
  },
  {
    name: 'a release written as a number',
    edit: (t) => t.replace(`version: v${demoRelease}`, 'version: 2.7'),
    code: 'schema',
    line: 9,
    column: 14,
    hint: /leading v, such as "v2\.7\.x"/,
  },
  {
    name: 'a mis-indented line: one diagnostic, at its first character',
    edit: (t) => t.replace('      podCIDRs: [10.244.32.0/20]', '     podCIDRs: [10.244.32.0/20]'),
    code: 'yaml-syntax',
    line: 31,
    column: 6,
    hint: /the line above starts its keys at column 7/,
  },
  {
    // the parser also reads the line as a multi-line implicit key: one diagnostic still
    name: 'a mis-indented key with a plain value: one diagnostic, at its first character',
    edit: (t) => t.replace('      serviceCIDR: 10.96.16.0/20', '     serviceCIDR: 10.96.16.0/20'),
    code: 'yaml-syntax',
    line: 25,
    column: 6,
    hint: /the line above starts its keys at column 7/,
  },
];

describe('hints where the intent is clear', () => {
  test.each(cases)('$name', ({ edit, code, line, column, hint }) => {
    const edited = edit(demo);
    expect(edited).not.toBe(demo);
    const { diagnostics, text } = check(edited);
    expect(diagnostics.map((d) => ({ code: d.code, line: d.line, column: d.column }))).toEqual([{ code, line, column }]);
    expect(diagnostics[0]!.hint).toMatch(hint);
    // a code frame points at the line
    expect(text).toMatch(new RegExp(`\\n\\s*${line} \\| .*\\n\\s+\\| {${column}}\\^`));
  });
});
