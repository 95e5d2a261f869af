// The hostile corpus of issue #37: what a pull request or a cluster dump may carry into a value.
// The output-format tests run every entry through every format; the property test and the fuzz
// benchmark (npm run bench -- fuzz) put entries into every string field of generated definitions.
/** The corpus: what a pull request or a cluster dump may carry into a value. */
export const CORPUS: readonly (readonly [string, string])[] = [
  ['command substitution', '$(touch /tmp/pwned)'],
  ['backticks and quotes', '`id`\'"\\'],
  ['a newline', 'a\nb'],
  ['ESC: clear the screen', '\u001b[2J\u001b[H'],
  ['OSC 8 hyperlink and BEL', '\u001b]8;;https://evil.example\u0007click\u001b]8;;\u0007'],
  ['CR over the line', 'ok\rFAIL'],
  ['NUL', 'a\u0000b'],
  ['C1 CSI and NEL', '\u009b2J\u0085'],
  ['bidi override', 'exe.\u202Etxt'],
  ['bidi embeddings', '\u202Aa\u202Bb\u202Cc\u202Dd'],
  ['bidi isolates', '\u2066a\u2067b\u2068c\u2069'],
  ['zero-width characters', 'a\u200Bb\u200Dc\uFEFF'],
  ['line and paragraph separators', 'a\u2028b\u2029'],
  ['::error', '::error::forged'],
  ['newline then ::set-output', 'x\n::set-output name=x::y'],
  ['::add-mask', '\n::add-mask::hidden'],
  ['CR then ::stop-commands', 'x\r::stop-commands::token'],
  ['##[ anywhere', 'a ##[error]forged'],
  // the runner trims every Unicode white space before `::` (.NET TrimStart), not only spaces and tabs
  ['no-break space then ::error', '\u00a0::error::forged'],
  ['newline, ideographic space, ::add-mask', 'x\n\u3000::add-mask::hidden'],
  ['Markdown link', '[docs](javascript:alert(1))'],
  ['Markdown HTML', '<img src=x onerror=alert(1)>'],
  ['Markdown table and code', '| a | `b` ```'],
  ['Mermaid', '"]-->x;click x call alert()%%'],
  ['Go template', '{{ .Values.x }}'],
  ['YAML 1.1 boolean', 'yes'],
  ['YAML 1.1 octal', '0777'],
];
