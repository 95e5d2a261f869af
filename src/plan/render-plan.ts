import { plural } from '../text/plural';
import { printable, printableJson, printableLines, workflowData } from '../diagnostics/printable';
import { markdownWithIdentifiers } from './markdown';
import { code, escapeMarkdown } from '../text/markdown';
import { planIdentifiers } from './plan-identifiers';
import { checklistMarkdown, checklistText } from './render-checklist';
import { IMPACTS, type Impact, type Plan, type PlanChange } from './plan';
import { planDiagram } from './plan-diagram';
import { connectionsMarkdown, connectionsText } from '../policy/render-connections';

export type PlanFormat = 'text' | 'json' | 'markdown' | 'github';
export const PLAN_FORMATS: readonly PlanFormat[] = ['text', 'json', 'markdown', 'github'];

/** The first line of the markdown plan: the workflow finds its own comment by it, to update it. */
export const PLAN_MARKER = '<!-- antrea-clusterset plan -->';

/** GitHub refuses a comment over 65,536 characters; the rendered plan stays under this. */
export const MARKDOWN_LIMIT = 65_000;

export interface PlanHeader {
  readonly base: string;
  readonly head: string;
}

const tally = (changes: readonly PlanChange[]) =>
  Object.fromEntries(IMPACTS.map((i) => [i, changes.filter((c) => c.impact === i).length])) as Record<Impact, number>;

/** The classes a plan shows: `refused` only when the plan has one, so plans without refusals read as before. */
const shownImpacts = (plan: Plan): readonly Impact[] => IMPACTS.filter((i) => i !== 'refused' || plan.changes.some((c) => c.impact === 'refused'));

const summaryLine = (plan: Plan): string => {
  if (plan.changes.length === 0) return 'no changes';
  const t = tally(plan.changes);
  return `${plural(plan.changes.length, 'change')}: ${shownImpacts(plan)
    .map((i) => `${t[i]} ${i}`)
    .join(', ')}`;
};

const clusterSetsOf = (plan: Plan) => [...new Set([...plan.changes.map((c) => c.clusterSet), ...plan.counts.map((c) => c.clusterSet)])].sort();

const countText = (plan: Plan, cs: string): string[] =>
  plan.counts
    .filter((c) => c.clusterSet === cs)
    .map((c) => {
      const layers = Object.entries(c.layers)
        .sort(([a], [b]) => (a < b ? -1 : 1))
        .map(([layer, n]) => `${layer} ${[n.added && `+${n.added}`, n.changed && `~${n.changed}`, n.removed && `-${n.removed}`].filter(Boolean).join(' ')}`);
      return `${c.owner}: ${layers.join(', ')}`;
    });

export function renderPlan(format: PlanFormat, plan: Plan, header: PlanHeader): string {
  switch (format) {
    case 'json':
      return `${printableJson(
        JSON.stringify(
          {
            base: header.base,
            head: header.head,
            summary: tally(plan.changes),
            destructive: plan.changes.some((c) => c.impact === 'destructive'),
            changes: plan.changes,
            checklist: plan.checklist ?? [],
            counts: plan.counts,
            // the policy impact, one entry per concrete pair (only with an inventory: plans without one read as before)
            ...(plan.connections && {
              connections: plan.connections.flatMap((r) =>
                r.changes.map((c) => ({
                  clusterSet: r.clusterSet,
                  from: c.from,
                  to: c.to,
                  ports: c.ports,
                  change: c.change,
                  before: c.before,
                  after: c.after,
                })),
              ),
            }),
          },
          null,
          2,
        ),
      )}\n`;
    case 'markdown':
      // values are code spans or escaped (markdown.ts); whatever else slipped through shows escaped
      return printableLines(renderMarkdown(plan, header));
    case 'github':
      // workflow commands: one annotation per destructive or disruptive change, then the text plan
      return `${plan.changes
        .filter((c) => c.impact === 'refused' || c.impact === 'destructive' || c.impact === 'disruptive')
        .map((c) => `::${c.impact === 'disruptive' ? 'warning' : 'error'} title=clusterset plan (${c.impact})::${workflowData(`${c.clusterSet}: ${c.text}`)}\n`)
        .join('')}${renderText(plan, header)}`;
    case 'text':
      return renderText(plan, header);
  }
}

/** Text inside an HTML block (`<summary>`), where Markdown escapes are not read: entities instead. */
const escapeHtml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

const stepsTitle = (c: PlanChange) => (c.impact === 'refused' ? `refused by Antrea (${c.code ?? 'transition'}); the supported procedure` : 'steps, in order');

/** Each line of the text plan holds values: one line each, whatever they hold (printable.ts). */
function renderText(plan: Plan, header: PlanHeader): string {
  const v = printable;
  const lines = [`clusterset plan: ${v(header.base)} → ${v(header.head)}`, ''];
  if (plan.changes.length === 0) return `${lines.join('\n')}no changes\n`;
  for (const cs of clusterSetsOf(plan)) {
    lines.push(`ClusterSet ${v(cs)}`);
    for (const c of plan.changes.filter((x) => x.clusterSet === cs)) {
      lines.push(`  [${c.impact}] ${v(c.text)}`);
      for (const d of c.details ?? []) lines.push(`      ${v(d)}`);
      if (c.steps?.length) lines.push(`      ${v(stepsTitle(c))}:`, ...c.steps.map((step, i) => `        ${i + 1}. ${v(step)}`));
    }
    lines.push(...checklistText(plan.checklist, cs));
    const connections = plan.connections?.find((r) => r.clusterSet === cs);
    if (connections) lines.push(...connectionsText(connections).map(v));
    const counts = countText(plan, cs);
    if (counts.length > 0) lines.push('  objects (+ added, ~ changed, - removed):', ...counts.map((l) => `    ${v(l)}`));
    lines.push('');
  }
  lines.push(summaryLine(plan));
  return `${lines.join('\n')}\n`;
}

/**
 * A pull-request comment: the summary table first, each ClusterSet's details folded. However big
 * the fleet, the text stays under MARKDOWN_LIMIT: details are dropped from the end with a count.
 */
function renderMarkdown(plan: Plan, header: PlanHeader): string {
  const head = [PLAN_MARKER, `### clusterset plan`, '', `${code(header.base)} → ${code(header.head)}: **${summaryLine(plan)}**`, ''];
  if (plan.changes.length === 0) return `${head.join('\n')}\n`;
  const sets = clusterSetsOf(plan);
  const impacts = shownImpacts(plan);
  const table = [`| ClusterSet | ${impacts.join(' | ')} |`, `|---|${impacts.map(() => '---|').join('')}`];
  const bold = (i: Impact) => i === 'destructive' || i === 'refused';
  for (const cs of sets) {
    const t = tally(plan.changes.filter((c) => c.clusterSet === cs));
    table.push(`| ${escapeMarkdown(cs)} | ${impacts.map((i) => (t[i] ? `${bold(i) ? '**' : ''}${t[i]}${bold(i) ? '**' : ''}` : '0')).join(' | ')} |`);
  }
  // the checklists are folded with their ClusterSets: what must happen before the merge shows here
  for (const cs of sets) {
    const before = (plan.checklist ?? []).filter((i) => i.clusterSet === cs && i.when === 'before merging').length;
    if (before > 0) table.push('', `**${plural(before, 'step')} before merging** in the checklist of ${code(cs)}`);
  }
  const identifiers = planIdentifiers(plan);
  const section = (cs: string, compact: boolean, diagram = ''): string => {
    const changes = plan.changes.filter((c) => c.clusterSet === cs);
    const shown = compact ? changes.slice(0, 50) : changes;
    const md = (s: string) => markdownWithIdentifiers(s, identifiers.get(cs) ?? new Set<string>());
    const body = shown.map((c) => {
      const details = compact
        ? []
        : [
            ...(c.details ?? []).map((d) => `  - ${md(d)}`),
            ...(c.steps?.length ? [`  - ${stepsTitle(c)}:`, ...c.steps.map((step, i) => `    ${i + 1}. ${md(step)}`)] : []),
          ];
      return [`- **${c.impact}** ${md(c.text)}`, ...details].join('\n');
    });
    if (shown.length < changes.length) body.push(`- _${plural(changes.length - shown.length, 'more change')} not shown_`);
    const allCounts = countText(plan, cs);
    const counts = (compact ? allCounts.slice(0, 20) : allCounts).map((l) => `- ${escapeMarkdown(l)}`);
    if (counts.length < allCounts.length) counts.push(`- _${plural(allCounts.length - counts.length, 'more cluster')} not shown_`);
    return [
      `<details><summary>${escapeHtml(cs)}: ${plural(changes.length, 'change')}</summary>`,
      '',
      ...(diagram ? [diagram, ''] : []),
      ...body,
      ...(compact ? [] : checklistMarkdown(plan.checklist, cs)),
      ...(compact ? [] : connectionsMarkdown(plan.connections?.find((r) => r.clusterSet === cs))),
      ...(counts.length > 0 ? ['', 'objects (+ added, ~ changed, - removed):', '', ...counts] : []),
      '',
      '</details>',
    ].join('\n');
  };
  let text = [...head, ...table, ''].join('\n');
  const tail = (n: number) => `\n_${plural(n, 'more ClusterSet')} not shown: run \`clusterset plan\` locally for the whole plan._\n`;
  // a section too big for what is left is shown compact (no details); past the limit, a count
  for (const [i, cs] of sets.entries()) {
    const budget = MARKDOWN_LIMIT - 500 - text.length;
    let compact = false;
    let s = section(cs, false);
    if (s.length > budget) s = section(cs, (compact = true));
    if (s.length > budget) return `${text}${tail(sets.length - i)}`;
    // the change drawn, in the room the section leaves (plan-diagram.ts; none when it does not fit)
    const diagram = planDiagram(plan, cs, budget - s.length - 2);
    if (diagram) s = section(cs, compact, diagram);
    text += `\n${s}\n`;
  }
  return text;
}
