import { printable, printableJson, workflowData, workflowProperty } from '../diagnostics/printable';
import { code, escapeMarkdown, table } from '../text/markdown';
import { DRIFT_KINDS, type DriftCluster, type DriftReport } from './drift';

import type { DriftFormat } from './drift-formats';

export { DRIFT_FORMATS, type DriftFormat } from './drift-formats';

/** The first line of the Markdown report: the drift workflow finds its issue by it (init/drift-workflow.ts). */
export const DRIFT_MARKER = '<!-- clusterset drift -->';

const state = (c: DriftCluster): string =>
  !c.readable
    ? 'could not be read'
    : c.findings.some((f) => f.kind === 'not-compared')
      ? 'read, not compared'
      : c.findings.length > 0
        ? 'drifts'
        : 'matches git';

/** `3 clusters: 1 drifts, 1 could not be read, 1 matches git`. */
function summary(report: DriftReport): string {
  const counts = new Map<string, number>();
  for (const c of report.clusters) counts.set(state(c), (counts.get(state(c)) ?? 0) + 1);
  const n = report.clusters.length;
  const verdict = !report.complete ? 'incomplete: not every cluster was compared' : report.drift ? 'the fleet drifts from git' : 'the fleet matches git';
  return `${n} cluster${n === 1 ? '' : 's'}: ${[...counts].map(([s, k]) => `${k} ${s}`).join(', ')}; ${verdict}`;
}

/** The report as the format says; every value from a dump or a definition escaped for where it goes. */
export function renderDrift(format: DriftFormat, report: DriftReport): string {
  if (format === 'json') return `${printableJson(JSON.stringify(report, null, 2))}\n`;
  if (format === 'github') return renderGithub(report);
  if (format === 'markdown') return renderMarkdown(report);
  const lines: string[] = [];
  for (const c of report.clusters) {
    lines.push(`${printable(c.clusterSet)}  ${printable(c.clusterID)}  ${state(c)}`);
    for (const f of c.findings) {
      lines.push(`  ${f.kind}: ${printable(f.message)}`);
      for (const o of f.objects) lines.push(`    ${printable(o)}`);
    }
  }
  if (report.nextSync.length > 0) lines.push('the next sync:', ...report.nextSync.map((s) => `  ${s.impact}: ${printable(s.text)}`));
  lines.push(summary(report));
  return `${lines.join('\n')}\n`;
}

/** One workflow command per finding: drift a warning, a cluster not compared an error. */
function renderGithub(report: DriftReport): string {
  const lines = report.clusters.flatMap((c) =>
    c.findings.map((f) => {
      const level = DRIFT_KINDS.has(f.kind) ? 'warning' : 'error';
      const title = workflowProperty(`clusterset drift: ${c.clusterID} ${f.kind}`);
      return `::${level} title=${title}::${workflowData([f.message, ...f.objects].join('\n'))}`;
    }),
  );
  return `${[...lines, printable(summary(report))].join('\n')}\n`;
}

/** The issue's body: the marker line, a table of clusters, then each finding with its objects. */
function renderMarkdown(report: DriftReport): string {
  const out = [DRIFT_MARKER, '### ClusterSet drift', '', escapeMarkdown(summary(report)), ''];
  out.push(
    table(
      ['ClusterSet', 'cluster', 'state'],
      report.clusters.map((c) => [code(c.clusterSet), code(c.clusterID), state(c)]),
    ),
  );
  for (const c of report.clusters.filter((x) => x.findings.length > 0)) {
    out.push('', `#### ${escapeMarkdown(c.clusterID)}`, '');
    for (const f of c.findings) {
      out.push(`- **${f.kind}**: ${escapeMarkdown(f.message)}`);
      for (const o of f.objects) out.push(`  - ${code(o)}`);
    }
  }
  if (report.nextSync.length > 0) out.push('', '#### The next sync', '', ...report.nextSync.map((s) => `- ${s.impact}: ${escapeMarkdown(s.text)}`));
  return `${out.join('\n')}\n`;
}
