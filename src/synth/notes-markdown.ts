/** The Markdown pieces the README (notes*.ts) is written with. */
export const code = (s: string): string => `\`${s}\``;
export const list = (items: readonly string[]): string => items.map((i) => `- ${i}`).join('\n');
export const table = (head: readonly string[], rows: readonly (readonly string[])[]): string =>
  [`| ${head.join(' | ')} |`, `|${head.map(() => '---').join('|')}|`, ...rows.map((r) => `| ${r.join(' | ')} |`)].join('\n');
export const sh = (lines: readonly string[]): string => ['```sh', ...lines, '```'].join('\n');
