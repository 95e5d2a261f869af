import { code, escapeMarkdown } from '../text/markdown';
import { CHANGE_KINDS, type ChangeKind, type ConnectionChange } from './connection-changes';
import type { ConnectionsReport } from './plan-connections';

/** Rows shown per change kind in text and Markdown; `--format json` lists every pair. */
export const ROWS_PER_KIND = 20;

interface Row {
  readonly from: string;
  readonly to: string;
  readonly ports: string;
  readonly before: string;
  readonly after: string;
  /** the clusters (or cluster pairs) that behave alike */
  readonly where: readonly string[];
}

const clusterOf = (e: string): string | undefined => (e.startsWith('mcs/') || e.startsWith('ip/') ? undefined : e.split('/')[0]);
const generic = (e: string): string => (clusterOf(e) === undefined ? e : `*${e.slice(clusterOf(e)!.length)}`);
const sideWords = (s: ConnectionChange['before']) => `${s.verdict} (${s.rule})`;

/** Changes of one kind, grouped where clusters behave alike: the same Namespaces, Pods, ports and rules in several clusters. */
export function groupRows(changes: readonly ConnectionChange[]): Row[] {
  const groups = new Map<string, { row: Omit<Row, 'where'>; where: string[]; concrete: ConnectionChange }>();
  for (const c of changes) {
    const row = { from: generic(c.from), to: generic(c.to), ports: c.ports, before: sideWords(c.before), after: sideWords(c.after) };
    const key = JSON.stringify([row, c.across]);
    const fc = clusterOf(c.from);
    const tc = clusterOf(c.to);
    const where = fc && tc && fc !== tc ? `${fc}→${tc}` : (fc ?? tc ?? '');
    const g = groups.get(key);
    if (g) g.where.push(where);
    else groups.set(key, { row, where: [where], concrete: c });
  }
  return [...groups.values()].map((g) =>
    g.where.length === 1
      ? { from: g.concrete.from, to: g.concrete.to, ports: g.row.ports, before: g.row.before, after: g.row.after, where: [] }
      : { ...g.row, where: g.where },
  );
}

const basisWords = (r: ConnectionsReport) => (r.basis === 'inventory' ? 'the inventory' : 'representative endpoints');

const byKind = (r: ConnectionsReport, k: ChangeKind) => r.changes.filter((c) => c.change === k);

export function connectionsText(r: ConnectionsReport): string[] {
  const lines = [`  connections (policy impact over ${basisWords(r)}): ${r.summary}`];
  for (const k of CHANGE_KINDS) {
    const rows = groupRows(byKind(r, k));
    if (rows.length === 0) continue;
    lines.push(`    ${k}:`);
    for (const row of rows.slice(0, ROWS_PER_KIND))
      lines.push(`      ${row.from} → ${row.to} ${row.ports}: ${row.before} → ${row.after}${row.where.length > 0 ? ` in ${row.where.join(', ')}` : ''}`);
    if (rows.length > ROWS_PER_KIND) lines.push(`      … ${rows.length - ROWS_PER_KIND} more (--format json lists every pair)`);
  }
  lines.push(...r.notes.map((n) => `    note: ${n}`));
  return lines;
}

export function connectionsMarkdown(r: ConnectionsReport | undefined): string[] {
  if (!r) return [];
  const lines = ['', `**Connections** (policy impact over ${basisWords(r)}): ${escapeMarkdown(r.summary)}`];
  for (const k of CHANGE_KINDS) {
    const rows = groupRows(byKind(r, k));
    if (rows.length === 0) continue;
    lines.push('', `${k}:`, '', '| from | to | ports | before | after | clusters |', '|---|---|---|---|---|---|');
    for (const row of rows.slice(0, ROWS_PER_KIND))
      lines.push(
        `| ${code(row.from)} | ${code(row.to)} | ${code(row.ports)} | ${escapeMarkdown(row.before)} | ${escapeMarkdown(row.after)} | ${escapeMarkdown(row.where.join(', '))} |`,
      );
    if (rows.length > ROWS_PER_KIND) lines.push('', `_${rows.length - ROWS_PER_KIND} more not shown; \`--format json\` lists every pair_`);
  }
  lines.push('', ...r.notes.map((n) => `_${escapeMarkdown(n)}_`));
  return lines;
}
