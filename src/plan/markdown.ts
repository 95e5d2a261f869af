/**
 * Escapes text for inline Markdown in a pull-request comment: values from a definition must not
 * open links, images, HTML, tables or code spans.
 */
export const escapeMarkdown = (s: string): string =>
  s.replace(/[\\`*_{}[\]()<>!|~]/g, (c) => `\\${c}`).replace(/[\u0000-\u001f\u007f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
