import { sortDiagnostics, type Diagnostic } from './diagnostic';
import { printable, printableJson, UNPRINTABLE, workflowData, workflowProperty } from './printable';

export type Format = 'text' | 'json' | 'github';

/** Source texts by file name, for code frames. */
export type Sources = ReadonlyMap<string, string>;

/** How text output looks: how many files were checked (for the summary) and whether to colour it. */
export interface TextOptions {
  /** files checked; the summary counts these rather than the files with diagnostics */
  readonly files?: number;
  /** ANSI colours; the CLI sets this only for a terminal with NO_COLOR unset */
  readonly color?: boolean;
  /** where a code's page is (docs/rules/<code>.md of the installed package), printed under each diagnostic */
  readonly docs?: (code: string) => string;
  /** the closing count of errors and warnings; default true */
  readonly summary?: boolean;
}

export function render(format: Format, diagnostics: readonly Diagnostic[], sources: Sources = new Map(), options: TextOptions = {}): string {
  switch (format) {
    case 'json':
      return renderJson(diagnostics);
    case 'github':
      return renderGithub(diagnostics);
    default:
      return renderText(diagnostics, sources, options);
  }
}

const SGR = { error: '1;31', warning: '1;33', note: '1;36', bold: '1', dim: '2' } as const;

const counts = (diagnostics: readonly Diagnostic[]) => ({
  errors: diagnostics.filter((d) => d.severity === 'error').length,
  warnings: diagnostics.filter((d) => d.severity === 'warning').length,
});

/** One JSON object: `{"diagnostics": [...], "errors": N, "warnings": M}`, its strings printable (printable.ts). */
export function renderJson(diagnostics: readonly Diagnostic[]): string {
  return `${printableJson(JSON.stringify({ diagnostics: sortDiagnostics(diagnostics), ...counts(diagnostics) }, null, 2))}\n`;
}

/** GitHub Actions workflow commands, one line each, escaped as the runner unescapes them (printable.ts). */
export function renderGithub(diagnostics: readonly Diagnostic[]): string {
  return sortDiagnostics(diagnostics)
    .map((d) => {
      const props = [`file=${workflowProperty(d.file)}`, `line=${d.line}`, `col=${d.column}`];
      if (d.endLine !== undefined) props.push(`endLine=${d.endLine}`);
      if (d.endColumn !== undefined && d.endLine === d.line) props.push(`endColumn=${d.endColumn}`);
      props.push(`title=${workflowProperty(d.code)}`);
      const body = d.hint ? `${d.message}\n${d.hint}` : d.message;
      return `::${d.severity} ${props.join(',')}::${workflowData(body)}\n`;
    })
    .join('');
}

/**
 * Text from a definition (values in messages, file names, source lines) may hold terminal escape
 * sequences, newlines, bidi controls or workflow commands: each is shown escaped (printable.ts),
 * never sent as it is, so a definition cannot clear the screen, fake a line or a result, or
 * command the CI runner. Only our own colours reach the terminal.
 */
const visible = printable;

/** GNU `file:line:col: severity code: message`, a code frame, related places and a hint. */
export function renderText(diagnostics: readonly Diagnostic[], given: Sources = new Map(), options: TextOptions = {}): string {
  const paint = (style: keyof typeof SGR, s: string) => (options.color ? `\x1b[${SGR[style]}m${s}\x1b[0m` : s);
  const sources = maskSecrets(given, diagnostics);
  let out = '';
  for (const d of sortDiagnostics(diagnostics)) {
    out += `${paint('bold', `${visible(d.file)}:${d.line}:${d.column}:`)} ${paint(d.severity, `${d.severity} ${d.code}:`)} ${visible(d.message)}\n`;
    out += codeFrame(sources.get(d.file), d.line, d.column, d.endLine === d.line ? d.endColumn : undefined);
    for (const r of d.related ?? []) {
      out += `${paint('bold', `${visible(r.file)}:${r.line}:${r.column}:`)} ${paint('note', 'note:')} ${visible(r.message)}\n`;
      out += codeFrame(sources.get(r.file), r.line, r.column, r.endLine === r.line ? r.endColumn : undefined);
    }
    if (d.hint) out += `  ${paint('dim', 'hint:')} ${visible(d.hint)}\n`;
    if (options.docs) out += `  ${paint('dim', 'docs:')} ${options.docs(d.code)}\n`;
  }
  const { errors, warnings } = counts(diagnostics);
  const files = options.files ?? new Set(diagnostics.map((d) => d.file)).size;
  if (diagnostics.length > 0 && options.summary !== false)
    out += `\n${errors} error${errors === 1 ? '' : 's'}, ${warnings} warning${warnings === 1 ? '' : 's'} in ${files} file${files === 1 ? '' : 's'}\n`;
  return out;
}

/**
 * The sources with every `inline-secret` finding written over with `*`, one per character so the
 * caret stays aligned: diagnostics reach CI logs, and a code frame (this one's, or the next
 * line's, or another diagnostic's) would print the secret itself. A finding without an end masks
 * the rest of its line.
 */
export function maskSecrets(sources: Sources, diagnostics: readonly Diagnostic[]): Sources {
  const findings = diagnostics.filter((d) => d.code === 'inline-secret' && sources.has(d.file));
  if (findings.length === 0) return sources;
  const masked = new Map(sources);
  for (const file of new Set(findings.map((d) => d.file))) {
    const lines = sources.get(file)!.split('\n');
    for (const d of findings.filter((f) => f.file === file)) {
      const last = d.endLine ?? d.line;
      for (let n = d.line; n <= last && n <= lines.length; n++) {
        const line = lines[n - 1]!;
        const from = n === d.line ? d.column - 1 : 0;
        const to = n === last && d.endColumn !== undefined ? d.endColumn - 1 : line.length;
        if (to > from) lines[n - 1] = line.slice(0, from) + '*'.repeat(Math.min(to, line.length) - from) + line.slice(to);
      }
    }
    masked.set(file, lines.join('\n'));
  }
  return masked;
}

const MAX_FRAME_WIDTH = 100;
const UNPRINTABLE_ALL = new RegExp(UNPRINTABLE.source, 'gu');

/** the last file split into lines: diagnostics come sorted by file, and a fleet's has a thousand warnings */
let split: { readonly text: string; readonly lines: readonly string[] } | undefined;

function linesOf(text: string): readonly string[] {
  // a file saved with CRLF line ends: the CR ends the line, it is not a character of it
  if (split?.text !== text) split = { text, lines: text.split(/\r?\n/) };
  return split.lines;
}

/** The offending line with its predecessor and a caret underline, trimmed around the caret. */
function codeFrame(text: string | undefined, line: number, column: number, endColumn?: number): string {
  if (text === undefined) return '';
  const lines = linesOf(text);
  const current = lines[line - 1];
  if (current === undefined) return '';
  const width = String(line).length;
  const gutter = (n: number | '') => `  ${String(n).padStart(width)} | `;
  let shift = 0;
  // one column per character keeps the caret aligned: an unprintable character shows as '?';
  // a frame line starts with its gutter, so only `##[` could make it a workflow command
  const plain = (t: string) => t.replace(/\t/g, ' ').replace(UNPRINTABLE_ALL, '?').replace(/##\[/g, '##?');
  let shown = plain(current);
  if (shown.length > MAX_FRAME_WIDTH) {
    shift = Math.max(0, Math.min(column - 1 - MAX_FRAME_WIDTH / 2, shown.length - MAX_FRAME_WIDTH));
    shown = shown.slice(shift, shift + MAX_FRAME_WIDTH);
  }
  let out = '';
  const prev = lines[line - 2];
  if (prev !== undefined && prev.trim() !== '' && shift === 0) out += `${gutter(line - 1)}${plain(prev).slice(0, MAX_FRAME_WIDTH)}\n`;
  out += `${gutter(line)}${shown}\n`;
  const start = Math.max(0, column - 1 - shift);
  const length = Math.max(1, Math.min((endColumn ?? column + 1) - column, shown.length - start));
  out += `${gutter('')}${' '.repeat(start)}${'^'.repeat(length)}\n`;
  return out;
}
