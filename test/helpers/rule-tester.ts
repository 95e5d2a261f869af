import { describe, expect, test } from 'vitest';
import type { Diagnostic, Location } from '../../src/diagnostics/diagnostic';
import { loadYaml } from '../../src/load/load-yaml';
import { parseClusterSet } from '../../src/model/parse-clusterset';
import type { Rule } from '../../src/validate/rule';
import { runFleetRules, runRawRules, runRules } from '../../src/validate/run-rules';

/** Prepended to every case, so a case shows only its `spec:`; positions are relative to the case. */
export const header = (name: string) => `apiVersion: antrea-clusterset/v1alpha1\nkind: ClusterSetDefinition\nmetadata:\n  name: ${name}\n`;
const HEADER = header('test');
export const HEADER_LINES = HEADER.split('\n').length - 1;

export interface ExpectedDiagnostic {
  readonly line: number;
  readonly column: number;
  /** defaults to the rule under test */
  readonly code?: string;
  readonly related?: readonly { readonly line: number; readonly column: number }[];
}

export interface InvalidCase {
  readonly name?: string;
  /** the `spec:` part of a definition (use the `source` tag); a full definition when it starts with apiVersion */
  readonly code: string;
  readonly diagnostics: readonly ExpectedDiagnostic[];
}

export interface ValidCase {
  readonly name?: string;
  readonly code: string;
}

/** Runs one rule over a YAML snippet and returns its diagnostics with snippet-relative lines. */
export function runRule(rule: Rule, code: string): Diagnostic[] {
  const full = code.startsWith('apiVersion:');
  const text = full ? code : HEADER + code;
  const offset = full ? 0 : HEADER_LINES;
  const diagnostics: Diagnostic[] = [];
  const src = loadYaml('test.yaml', text, diagnostics);
  if (!src) throw new Error(`case does not load: ${JSON.stringify(diagnostics)}`);
  runRawRules(src, diagnostics, [rule]);
  const parsed = parseClusterSet(src, diagnostics);
  if (diagnostics.some((d) => d.code === 'schema')) throw new Error(`case fails the schema: ${JSON.stringify(diagnostics.filter((d) => d.code === 'schema'))}`);
  if (parsed) runRules(parsed, diagnostics, [rule]);
  return diagnostics.map((d) => ({
    ...d,
    line: d.line - offset,
    ...(d.related ? { related: d.related.map((r) => ({ ...r, line: r.line - offset })) } : {}),
  }));
}

/** A whole definition named `name` whose body is `spec` (its `spec:` line is line 5). */
export const definitionText = (name: string, spec: string): string => header(name) + spec;

/** Runs one fleet rule over whole definitions (file name → text), each of which must load and parse clean. */
export function runFleetRule(rule: Rule, files: Readonly<Record<string, string>>): Diagnostic[] {
  const diagnostics: Diagnostic[] = [];
  const parsed = Object.entries(files).map(([file, text]) => parseClusterSet(loadYaml(file, text, diagnostics)!, diagnostics)!);
  expect(diagnostics).toEqual([]);
  runFleetRules(parsed, diagnostics, [rule]);
  return diagnostics;
}

/** `file:line:column` of a diagnostic or a related location. */
export const at = (d: Location): string => `${d.file}:${d.line}:${d.column}`;

/** typescript-eslint style: valid cases report nothing, invalid ones exactly the listed positions. */
export function ruleTester(rule: Rule, cases: { valid: readonly (string | ValidCase)[]; invalid: readonly InvalidCase[] }): void {
  describe(rule.id, () => {
    test.each(cases.valid.map((c, i) => (typeof c === 'string' ? { name: `valid #${i + 1}`, code: c } : { name: c.name ?? `valid #${i + 1}`, code: c.code })))(
      '$name',
      ({ code }) => {
        expect(runRule(rule, code).filter((d) => d.code === rule.id)).toEqual([]);
      },
    );
    test.each(cases.invalid.map((c, i) => ({ ...c, name: c.name ?? `invalid #${i + 1}` })))('$name', ({ code, diagnostics }) => {
      const actual = runRule(rule, code)
        .filter((d) => d.code === rule.id)
        .map((d) => ({
          code: d.code,
          line: d.line,
          column: d.column,
          ...(d.related ? { related: d.related.map((r) => ({ line: r.line, column: r.column })) } : {}),
        }));
      const expected = diagnostics.map((d) => ({ code: d.code ?? rule.id, line: d.line, column: d.column, ...(d.related ? { related: d.related } : {}) }));
      expect(actual).toEqual(expected);
    });
  });
}
