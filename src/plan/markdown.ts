import { code } from '../synth/notes-markdown';
/**
 * Escapes text for inline Markdown in a pull-request comment: values from a definition must not
 * open links, images, HTML, entities, emphasis, tables or code spans. Only what could start one
 * is escaped: `(` and `!` are harmless once `[` is, and `_` inside a word (stale_controller.go)
 * is not emphasis.
 */
export const escapeMarkdown = (s: string): string =>
  s
    .replace(/[\\`*[\]<>|~&]/g, (c) => `\\${c}`)
    .replace(/(?<![A-Za-z0-9])_|_(?![A-Za-z0-9])/g, '\\_')
    .replace(/[\u0000-\u001f\u007f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

/**
 * Text whose identifiers the plan wrote between backticks (`` `east` ``): those become code
 * spans, the rest is escaped. The identifiers are validated names, without backticks.
 */
export const markdownWithCode = (s: string): string =>
  s
    .split('`')
    .map((part, i) => (i % 2 === 0 ? escapeMarkdown(part) : part === '' ? '\\`\\`' : `\`${part.replace(/[\u0000-\u001f\u007f]/g, '?')}\``))
    .join('');

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
