// What a CI log and a terminal make of text we print: the GitHub Actions runner's reading of a
// step's output (actions/runner src/Runner.Common/ActionCommand.cs and
// src/Runner.Worker/ActionCommandManager.cs), and the characters a terminal acts on or shows as
// other than they are. The tests' judge of every output format, independent of the product's code.

/** A step's output as the runner reads it: line by line, a line ending at LF, CR LF or CR (StreamReader.ReadLine). */
export const runnerLines = (text: string): string[] => text.split(/\r\n|\r|\n/);

export interface WorkflowCommand {
  readonly command: string;
  readonly properties: Readonly<Record<string, string>>;
  /** the data after the runner's unescaping */
  readonly data: string;
  readonly line: string;
}

const unescapeData = (s: string) => s.replace(/%0D/g, '\r').replace(/%0A/g, '\n').replace(/%25/g, '%');
const unescapeProperty = (s: string) => unescapeData(s).replace(/%3A/g, ':').replace(/%2C/g, ',');

/**
 * What .NET's `String.TrimStart()` trims (`Char.IsWhiteSpace`: the Unicode categories Zs, Zl, Zp,
 * U+0009–U+000D and U+0085), which the runner applies before it looks for `::`. Not JavaScript's
 * `trimStart()`, which also trims U+FEFF and keeps U+0085.
 */
const DOTNET_WHITE_SPACE = /^[\u0009-\u000D\u0020\u0085\u00A0\u1680\u2000-\u200A\u2028\u2029\u202F\u205F\u3000]+/;

/**
 * Every line the runner would take for a workflow command, whatever its name (stricter than the
 * runner, which acts only on registered names): `TryParseV2` (`::name props::data` once leading
 * white space is trimmed) and then `TryParse` (`##[name props]data` anywhere in the line).
 */
export function workflowCommands(text: string): WorkflowCommand[] {
  const found: WorkflowCommand[] = [];
  for (const line of runnerLines(text)) {
    const trimmed = line.replace(DOTNET_WHITE_SPACE, '');
    const end = trimmed.startsWith('::') ? trimmed.indexOf('::', 2) : -1;
    if (end >= 0) {
      const info = trimmed.slice(2, end);
      const space = info.indexOf(' ');
      const properties: Record<string, string> = {};
      if (space > 0)
        for (const p of info
          .slice(space + 1)
          .trim()
          .split(',')
          .filter(Boolean)) {
          const eq = p.indexOf('=');
          if (eq > 0) properties[p.slice(0, eq)] = unescapeProperty(p.slice(eq + 1));
        }
      found.push({ command: space < 0 ? info : info.slice(0, space), properties, data: unescapeData(trimmed.slice(end + 2)), line });
      continue;
    }
    const prefix = line.indexOf('##[');
    const bracket = prefix >= 0 ? line.indexOf(']', prefix) : -1;
    if (bracket >= 0) found.push({ command: line.slice(prefix + 3, bracket).split(' ')[0]!, properties: {}, data: line.slice(bracket + 1), line });
  }
  return found;
}

/**
 * The characters of a text no output may show as they are (all but the newlines of its own line
 * structure): controls (Unicode Cc), format characters (Cf: bidi controls, zero-width characters),
 * line and paragraph separators, lone surrogates; as `U+XXXX`.
 */
export const unprintables = (text: string): string[] =>
  [...text.matchAll(/(?!\n)[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}]/gu)].map((m) => `U+${m[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`);
