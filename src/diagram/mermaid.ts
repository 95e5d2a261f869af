/**
 * Mermaid flowchart text: labels quoted for Mermaid, and the limits GitHub renders within.
 *
 * GitHub keeps Mermaid's defaults (docs/plan.md#the-diagram): a diagram whose text is longer than
 * `maxTextSize` is replaced by an error box when it renders (mermaidAPI.ts `render`, after
 * `preprocessDiagram`: line ends normalised, front matter, directives and `%%` comment lines
 * removed, leading whitespace trimmed), and a flowchart with more than `maxEdges` links fails
 * to parse (flowDb.ts `addLink`).
 */
export const MERMAID_MAX_TEXT = 50_000;
export const MERMAID_MAX_EDGES = 500;

/** The length Mermaid compares with `maxTextSize`: the text after its preprocessing, in UTF-16 units. */
export const mermaidTextSize = (text: string): number =>
  text
    .replace(/\r\n?/g, '\n')
    .replace(/^\s*%%(?!{)[^\n]+\n?/gm, '')
    .trimStart().length;

/**
 * Text for a quoted label (`id["…"]`, `subgraph id["…"]`, `-->|"…"|`). Every character outside
 * a plain set becomes a numeric entity `#NNN;`, which Mermaid decodes only when it writes the
 * label (common.ts `decodeEntities`, into `&#NNN;`): a name cannot close the quote, start a
 * statement (`click`, `style`), a comment, HTML, a Markdown string or an entity of its own.
 * Colons and semicolons are escaped too, so no label line matches the `style…:…#…;` rewrite of
 * `encodeEntities`. Long values are cut (on code points) with an ellipsis, so a label's size is
 * bounded whatever a definition holds.
 */
export function mermaidText(value: string, max = 80): string {
  const points = Array.from(value);
  const cut = points.length > max ? [...points.slice(0, max - 1), '…'] : points;
  return cut.map((c) => (/^[A-Za-z0-9 ./,_-]$/.test(c) ? c : `#${c.codePointAt(0)!};`)).join('');
}

/** A label of several lines, each escaped; `<br/>` is the only markup and it is ours. */
export const mermaidLabel = (lines: readonly string[], max?: number): string => `"${lines.map((l) => mermaidText(l, max)).join('<br/>')}"`;
