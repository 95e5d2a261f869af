/**
 * Text from a definition or a cluster dump reaches terminals, CI logs, Markdown and files. What no
 * output shows as it is: control characters (Unicode Cc: C0, DEL, C1, ESC starts terminal
 * sequences), format characters (Cf: bidi embeddings, overrides and isolates, zero-width
 * characters, the soft hyphen, the BOM: they make text read other than it is, CVE-2021-42574),
 * line and paragraph separators (Zl, Zp) and lone surrogates (Cs).
 */
export const UNPRINTABLE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}]/u;
const UNPRINTABLE_ALL = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}]/gu;
/** the same, but newlines: the line structure of multi-line output is ours */
const UNPRINTABLE_BUT_NEWLINE = /(?!\n)[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}]/gu;

/** `\x1b`, `\u202e`: how an unprintable character shows (the notation of JavaScript, JSON and YAML alike). */
export const escapeCode = (c: string): string => {
  const n = c.charCodeAt(0);
  return n <= 0xff ? `\\x${n.toString(16).padStart(2, '0')}` : `\\u${n.toString(16).padStart(4, '0')}`;
};

/** The first unprintable character of a text, as its code point (`U+202E`), for a diagnostic. */
export function firstUnprintable(s: string): string | undefined {
  const m = UNPRINTABLE.exec(s);
  return m ? `U+${m[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}` : undefined;
}

/**
 * GitHub Actions' runner reads every line a step prints (ActionCommandManager.TryProcessCommand),
 * splitting at LF, CR LF and CR alike: a line whose text starts with `::` after leading white
 * space is a workflow command (ActionCommand.TryParseV2), and so is `##[` anywhere in a line
 * (ActionCommand.TryParse, the old syntax), for `error`, `add-mask`, `stop-commands` and the other
 * registered commands. A value must start neither: its `:` or `[` shows as its escape. The
 * runner's white space is .NET's `String.TrimStart()`: every Unicode White_Space character (the
 * no-break space U+00A0, U+2003, U+3000, …), not only spaces and tabs (#48 item 3).
 */
const WORKFLOW_COMMAND = /^((?:(?!\n)\p{White_Space})*):(?=:)|##\[/gmu;
/** a line of multi-line text that starts with `::` after white space */
const COMMAND_LINE = /(?:^|\n)(?:(?!\n)\p{White_Space})*::/u;
const defuse = (m: string, indent: string | undefined): string => (m === '##[' ? '##\\x5b' : `${indent!}\\x3a`);

/**
 * A value on one line of output: every unprintable character, newlines and tabs too, shown as its
 * escape, and no workflow command whether or not the value starts the line.
 */
export const printable = (s: string): string => s.replace(UNPRINTABLE_ALL, escapeCode).replace(WORKFLOW_COMMAND, defuse);

/**
 * Multi-line output for a terminal, a CI log or Markdown: unprintable characters escaped except
 * newlines, and no line that the Actions runner reads as a workflow command. For output whose
 * own lines are workflow commands (`--format github`), neutralise the values (`printable`,
 * `workflowData`) instead.
 */
export const printableLines = (s: string): string => s.replace(UNPRINTABLE_BUT_NEWLINE, escapeCode).replace(WORKFLOW_COMMAND, defuse);

const UNPRINTABLE_INSIDE_LINES = /(?!\n)[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}]/u;

/** Whether multi-line text holds anything `printableLines` changes (most does not: the common case costs three tests). */
export const needsEscapes = (s: string): boolean => UNPRINTABLE_INSIDE_LINES.test(s) || s.includes('##[') || COMMAND_LINE.test(s);

/**
 * The data of a workflow command (`::error …::<data>`), as the runner unescapes it
 * (ActionCommand.UnescapeData: `%25`, `%0D`, `%0A`): one line, whatever the value holds, with no
 * `##[` and no other unprintable character.
 */
export const workflowData = (s: string): string =>
  s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A').replace(UNPRINTABLE_ALL, escapeCode).replace(/##\[/g, '##\\x5b');

/** A property of a workflow command (`file=…,title=…`): its data escapes, and `:` and `,` (ActionCommand.UnescapeProperty). */
export const workflowProperty = (s: string): string => workflowData(s).replace(/:/g, '%3A').replace(/,/g, '%2C');

/**
 * JSON text with every unprintable character and `##[` inside its strings written as `\u` escapes:
 * the same value to any JSON reader, and nothing a terminal or the Actions runner acts on.
 * (JSON.stringify escapes C0 only.) Only strings can hold these, so the whole text is rewritten.
 */
export const printableJson = (json: string): string =>
  json.replace(UNPRINTABLE_BUT_NEWLINE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).replace(/##\[/g, '##\\u005b');
