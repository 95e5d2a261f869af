import type { Diagnostic } from '../diagnostics/diagnostic';
import type { SourceFile } from '../load/source-file';
import type { ClusterSet } from '../model/clusterset';
import { effectiveClusters } from '../model/effective';
import type { TransitionFinding, TransitionRule } from './transition';
import { allTransitions } from './transitions';

/** Runs the transition rules over two revisions of one ClusterSet (base: what the clusters run). */
export function runTransitions(before: ClusterSet, after: ClusterSet, rules: readonly TransitionRule[] = allTransitions): TransitionFinding[] {
  const views = {
    before: { definition: before, clusters: effectiveClusters(before) },
    after: { definition: after, clusters: effectiveClusters(after) },
  };
  const findings: TransitionFinding[] = [];
  for (const rule of rules)
    rule.validate({
      ...views,
      report: (r) => findings.push({ ...r, code: rule.id, severity: rule.severity, clusterSet: after.metadata.name }),
    });
  return findings;
}

/** A finding as a diagnostic at its place in the head (or base) file; the steps become the hint. */
export function transitionDiagnostic(finding: TransitionFinding, sources: { readonly before: SourceFile; readonly after: SourceFile }): Diagnostic {
  const at = (before: boolean | undefined) => (before ? sources.before : sources.after);
  const main = at(finding.before);
  return {
    code: finding.code,
    severity: finding.severity,
    message: finding.message,
    file: main.file,
    path: finding.path,
    ...main.locate(finding.path),
    hint: `the supported procedure: ${finding.steps.map((s, i) => `${i + 1}. ${s}`).join('; ')}`,
    ...(finding.related?.length && {
      related: finding.related.map((r) => ({ message: r.message, file: at(r.before).file, path: r.path, ...at(r.before).locate(r.path) })),
    }),
  };
}
