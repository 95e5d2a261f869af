/** The Markdown pieces the README (notes*.ts) and the plan's Markdown are written with. */

/** The fence for a text: one backtick longer than any backtick run inside it (at least `min`). */
const fenceFor = (text: string, min: number): string => '`'.repeat(Math.max(min - 1, ...(text.match(/`+/g) ?? []).map((r) => r.length)) + 1);

/**
 * A code span for any text: its fence is longer than any backtick run inside, padded with a space
 * when the text starts or ends with a backtick (CommonMark strips one); control characters show as `?`.
 */
export const code = (s: string): string => {
  const text = s.replace(/[\u0000-\u001f\u007f]/g, '?');
  const fence = fenceFor(text, 1);
  const pad = text.startsWith('`') || text.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${text}${pad}${fence}`;
};
export const list = (items: readonly string[]): string => items.map((i) => `- ${i}`).join('\n');
export const table = (head: readonly string[], rows: readonly (readonly string[])[]): string =>
  [`| ${head.join(' | ')} |`, `|${head.map(() => '---').join('|')}|`, ...rows.map((r) => `| ${r.join(' | ')} |`)].join('\n');
/** A fenced `sh` block; its fence is longer than any backtick run in the commands, so no value closes it. */
export const sh = (lines: readonly string[]): string => {
  const fence = fenceFor(lines.join('\n'), 3);
  return [`${fence}sh`, ...lines, fence].join('\n');
};
