import { code, escapeMarkdown } from '../text/markdown';

/**
 * Text whose identifiers the plan wrote as code spans (`code`, markdown.ts: a fence longer
 * than any backtick run inside): those spans pass as they are, the rest is escaped. A backtick run
 * that closes nothing is text, as CommonMark reads it.
 */
export function markdownWithCode(s: string): string {
  let out = '';
  let at = 0;
  const runs = [...s.matchAll(/`+/g)];
  for (let i = 0; i < runs.length; i++) {
    const open = runs[i]!;
    if (open.index < at) continue;
    const close = runs.slice(i + 1).find((r) => r[0].length === open[0].length);
    if (!close) continue;
    out += escapeMarkdown(s.slice(at, open.index)) + s.slice(open.index, close.index + close[0].length);
    at = close.index + close[0].length;
  }
  return out + escapeMarkdown(s.slice(at));
}

/**
 * What may be one identifier: a name, a `namespace/name`, a URL, a CIDR, a field path, standing
 * alone between spaces or parentheses (a trailing `.`, `:`, `,` or `;` is the sentence's).
 */
const TOKEN = /(?<=^|[\s(])(?:[A-Za-z0-9][\w.:/[\]-]*[\w\]]|[A-Za-z0-9])(?=$|[\s),.:;])/g;
/** an upstream source file the plan cites (`leader/stale_controller.go`) */
const SOURCE_FILE = /^[\w-]+(\/[\w-]+)*\.go$/;
/** a command the plan quotes in parentheses, or that ends a step after a colon (the refused procedures, dissolve-steps.ts) */
const QUOTED_COMMAND = /(?<=\()kubectl [^()`]*(?=\))|(?<=: )(?:kubectl --context|for \w+ in) [^`]*$/g;

/**
 * Plan text for Markdown: the identifiers the plan knows (cluster IDs, Namespaces, object names,
 * CIDRs, versions, field paths; plan-identifiers.ts), the upstream files it cites and the commands
 * it quotes become code spans, which need no escapes; the rest is escaped. Only whole tokens
 * match, so a value the plan does not know stays escaped text.
 */
export function markdownWithIdentifiers(s: string, identifiers: ReadonlySet<string>): string {
  let out = '';
  let last = 0;
  const spans = [...s.matchAll(QUOTED_COMMAND)].map((m) => [m.index, m.index + m[0].length] as const);
  for (const m of s.matchAll(TOKEN)) {
    const command = spans.find(([from, to]) => m.index >= from && m.index < to);
    if (command) {
      if (command[0] < last) continue;
      out += escapeMarkdown(s.slice(last, command[0])) + code(s.slice(command[0], command[1]));
      last = command[1];
      continue;
    }
    if (m.index < last || !(identifiers.has(m[0]) || SOURCE_FILE.test(m[0]))) continue;
    out += escapeMarkdown(s.slice(last, m.index)) + code(m[0]);
    last = m.index + m[0].length;
  }
  return out + escapeMarkdown(s.slice(last));
}
