import { describe, expect, test } from 'vitest';
import type { Diagnostic } from '../../src/diagnostics/diagnostic';
import { loadYaml } from '../../src/load/load-yaml';
import { parseClusterSet } from '../../src/model/parse-clusterset';
import { runTransitions, transitionDiagnostic } from '../../src/validate/run-transitions';
import type { TransitionRule } from '../../src/validate/transition';
import { header, HEADER_LINES } from './rule-tester';

export interface TransitionCase {
  readonly name: string;
  /** the `spec:` part of each revision (use the `source` tag); `name` renames the ClusterSet */
  readonly before: string;
  readonly after: string;
  readonly names?: { readonly before?: string; readonly after?: string };
  /** expected diagnostics: line and column in `after`, or in `before` with `before: true` */
  readonly diagnostics?: readonly { readonly line: number; readonly column: number; readonly before?: boolean }[];
}

function parse(file: string, name: string, code: string) {
  const diagnostics: Diagnostic[] = [];
  const src = loadYaml(file, header(name) + code, diagnostics);
  const parsed = src && parseClusterSet(src, diagnostics);
  if (!parsed) throw new Error(`case does not parse: ${JSON.stringify(diagnostics)}`);
  return parsed;
}

/** Runs one transition rule over a pair of revisions; valid cases (no `diagnostics`) report nothing. */
export function transitionTester(rule: TransitionRule, cases: readonly TransitionCase[]): void {
  describe(rule.id, () => {
    test.each(cases)('$name', (c) => {
      const before = parse('before.yaml', c.names?.before ?? 'test', c.before);
      const after = parse('after.yaml', c.names?.after ?? 'test', c.after);
      const findings = runTransitions(before.definition, after.definition, [rule]);
      const actual = findings.map((f) => {
        const d = transitionDiagnostic(f, { before: before.source, after: after.source });
        return { code: d.code, line: d.line - HEADER_LINES, column: d.column, ...(d.file === 'before.yaml' && { before: true }) };
      });
      expect(actual).toEqual((c.diagnostics ?? []).map((d) => ({ code: rule.id, line: d.line, column: d.column, ...(d.before && { before: true }) })));
      // a refusal always comes with the procedure that reaches the head instead
      for (const f of findings) expect(f.steps.length).toBeGreaterThan(0);
    });
  });
}
