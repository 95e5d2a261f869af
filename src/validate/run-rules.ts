import { releaseFor } from '../antrea/releases';
import type { Diagnostic } from '../diagnostics/diagnostic';
import type { SourceFile } from '../load/source-file';
import { effectiveClusters } from '../model/effective';
import type { ParsedClusterSet } from '../model/parse-clusterset';
import { isFleetRule, isRawRule, type FleetReport, type Report, type Rule } from './rule';
import { allRules } from './rules';

function reporter(source: SourceFile, rule: Rule, diagnostics: Diagnostic[], sourceOf: (at: number) => SourceFile = () => source) {
  return (r: Report | FleetReport) => {
    diagnostics.push({
      code: rule.id,
      severity: ('severity' in r && r.severity) || rule.severity,
      message: r.message,
      file: source.file,
      path: r.path,
      ...source.locate(r.path, { key: r.key ?? false }),
      ...(r.hint ? { hint: r.hint } : {}),
      ...(r.related?.length
        ? {
            related: r.related.map((rel) => {
              const at = 'at' in rel ? sourceOf(rel.at) : source;
              return { message: rel.message, file: at.file, path: rel.path, ...at.locate(rel.path) };
            }),
          }
        : {}),
    });
  };
}

/** Rules over raw data: they run for every loaded file, whether or not its shape is valid. */
export function runRawRules(source: SourceFile, diagnostics: Diagnostic[], rules: readonly Rule[] = allRules): void {
  for (const rule of rules) if (isRawRule(rule)) rule.validateRaw({ data: source.data, report: reporter(source, rule, diagnostics) });
}

/** Cross-field and cross-cluster rules over a parsed definition. */
export function runRules(parsed: ParsedClusterSet, diagnostics: Diagnostic[], rules: readonly Rule[] = allRules): void {
  const clusters = effectiveClusters(parsed.definition);
  const release = releaseFor(parsed.definition.spec.antrea.version);
  for (const rule of rules) {
    if (isRawRule(rule) || isFleetRule(rule)) continue;
    rule.validate({ definition: parsed.definition, clusters, release, report: reporter(parsed.source, rule, diagnostics) });
  }
}

/** Rules across definitions: each report names its definition, and related locations theirs. */
export function runFleetRules(parsed: readonly ParsedClusterSet[], diagnostics: Diagnostic[], rules: readonly Rule[] = allRules): void {
  if (parsed.length < 2) return;
  const definitions = parsed.map((p) => ({ definition: p.definition, clusters: effectiveClusters(p.definition) }));
  for (const rule of rules) {
    if (!isFleetRule(rule)) continue;
    rule.validateFleet({
      definitions,
      report: (at, r) => reporter(parsed[at]!.source, rule, diagnostics, (i) => parsed[i]!.source)(r),
    });
  }
}
