import { releaseFor } from '../antrea/releases';
import type { Diagnostic } from '../diagnostics/diagnostic';
import type { SourceFile } from '../load/source-file';
import { effectiveClusters } from '../model/effective';
import type { ParsedClusterSet } from '../model/parse-clusterset';
import { isRawRule, type Report, type Rule } from './rule';
import { allRules } from './rules';

function reporter(source: SourceFile, rule: Rule, diagnostics: Diagnostic[]) {
  return (r: Report) => {
    diagnostics.push({
      code: rule.id,
      severity: rule.severity,
      message: r.message,
      file: source.file,
      path: r.path,
      ...source.locate(r.path, { key: r.key ?? false }),
      ...(r.hint ? { hint: r.hint } : {}),
      ...(r.related?.length
        ? { related: r.related.map((rel) => ({ message: rel.message, file: source.file, path: rel.path, ...source.locate(rel.path) })) }
        : {}),
    });
  };
}

/** Rules over raw data: they run for every loaded file, whether or not its shape is valid. */
export function runRawRules(source: SourceFile, diagnostics: Diagnostic[], rules: readonly Rule[] = allRules): void {
  for (const rule of rules) if (isRawRule(rule)) rule.checkRaw({ data: source.data, report: reporter(source, rule, diagnostics) });
}

/** Cross-field and cross-cluster rules over a parsed definition. */
export function runRules(parsed: ParsedClusterSet, diagnostics: Diagnostic[], rules: readonly Rule[] = allRules): void {
  const clusters = effectiveClusters(parsed.definition);
  const release = releaseFor(parsed.definition.spec.antrea.version);
  for (const rule of rules) {
    if (isRawRule(rule)) continue;
    rule.check({ definition: parsed.definition, clusters, release, report: reporter(parsed.source, rule, diagnostics) });
  }
}
