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
