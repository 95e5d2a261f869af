/** The Markdown pieces the README (notes*.ts) and the plan's Markdown are written with. */
import { printable, UNPRINTABLE } from '../diagnostics/printable';

const UNPRINTABLE_ALL = new RegExp(UNPRINTABLE.source, 'gu');

/** The fence for a text: one backtick longer than any backtick run inside it (at least `min`). */
const fenceFor = (text: string, min: number): string => '`'.repeat(Math.max(min - 1, ...(text.match(/`+/g) ?? []).map((r) => r.length)) + 1);

/**
 * A code span for any text: its fence is longer than any backtick run inside, padded with a space
 * when the text starts or ends with a backtick (CommonMark strips one); unprintable characters
 * show as their escapes and no workflow command is left in it (diagnostics/printable.ts).
 */
export const code = (s: string): string => {
  const text = printable(s);
  const fence = fenceFor(text, 1);
  const pad = text.startsWith('`') || text.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${text}${pad}${fence}`;
};

/**
 * Escapes text for inline Markdown (a README, a pull-request comment): values must not open
 * links, images, HTML, entities, emphasis, tables or code spans. Only what could start one is
 * escaped: `(` and `!` are harmless once `[` is, and `_` inside a word (stale_controller.go) is not
 * emphasis. `://` and `www.` are broken (`\:`, `\.`) so that GitHub does not autolink a URL a
 * value holds; unprintable characters show as `\u` escapes.
 */
export const escapeMarkdown = (s: string): string =>
  s
    .replace(/[\\`*[\]<>|~&]/g, (c) => `\\${c}`)
    .replace(/(?<![A-Za-z0-9])_|_(?![A-Za-z0-9])/g, '\\_')
    .replace(/:\/\//g, '\\://')
    .replace(/\bwww\./gi, (w) => `${w.slice(0, 3)}\\.`)
    .replace(UNPRINTABLE_ALL, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

export const list = (items: readonly string[]): string => items.map((i) => `- ${i}`).join('\n');

/** A GFM table; a `|` in a cell, even in a code span, is escaped (unless it already is), so no value adds a column. */
export const table = (head: readonly string[], rows: readonly (readonly string[])[]): string => {
  const cell = (c: string) => c.replace(/(?<!\\)\|/g, '\\|');
  return [`| ${head.join(' | ')} |`, `|${head.map(() => '---').join('|')}|`, ...rows.map((r) => `| ${r.map(cell).join(' | ')} |`)].join('\n');
};
/** A fenced `sh` block; its fence is longer than any backtick run in the commands, so no value closes it. */
export const sh = (lines: readonly string[]): string => {
  const fence = fenceFor(lines.join('\n'), 3);
  return [`${fence}sh`, ...lines, fence].join('\n');
};
