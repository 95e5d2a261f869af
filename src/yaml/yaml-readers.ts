// Which plain scalars the readers of our YAML resolve to something other than a string, so that
// both writers (fast-yaml.ts and yaml v2 through serialize.ts) quote those strings. The readers:
// YAML 1.1 (kubectl, Argo CD and Flux through sigs.k8s.io/yaml, whose go-yaml v2 resolve.go
// `resolve` reads `no`, `~`, `0400`, `1:20`, `<<`), the YAML 1.2 core schema (kustomize's and
// Flux's go-yaml v3, yaml v2: `0o17`, `0x1F`, `.inf`), and go-yaml's own additions to both:
// `resolve` strips every `_` and hands a plain scalar that starts with a digit or a sign to Go's
// strconv.ParseInt/ParseUint with base 0 (`0X1F`, `0O17`, `0B1`, `1_0`) and then ParseFloat, and
// reads `2024-1-2` (one-digit month and day) as a timestamp.
import type { CreateNodeOptions, DocumentOptions, SchemaOptions, Tags, ToStringOptions } from 'yaml';
import { Document, visit } from 'yaml';
import { escapeCode, needsEscapes, UNPRINTABLE } from '../diagnostics/printable';

/** A tag's `test` is a RegExp to yaml v2, which only calls its `test`: a predicate in that shape. */
class Predicate extends RegExp {
  constructor(private readonly accepts: (text: string) => boolean) {
    super('');
  }
  override test(text: string): boolean {
    return this.accepts(text);
  }
}

/** go-yaml's number: first character a digit or a sign, then, without `_`, what strconv reads. */
const GO_NUMBER = /^[-+]?(?:0[xX][0-9a-fA-F]+|0[oO][0-7]+|0[bB][01]+|(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?)$/;
const goNumber = (text: string) => /^[-+0-9]/.test(text) && GO_NUMBER.test(text.replaceAll('_', ''));

/** A tag that only decides quoting: a string it matches is written quoted. */
const quoted = (test: RegExp): Tags[number] => ({ tag: 'tag:yaml.org,2002:int', default: true, test, resolve: (text: string) => text });

/** What the YAML 1.1 schema of yaml v2 does not already cover. */
const COMPAT: Tags = [
  ...new Document(null, { version: '1.2' }).schema.tags,
  quoted(new Predicate(goNumber)),
  // go-yaml's timestamps (one- or two-digit month and day, an optional time)
  quoted(/^[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}(?:[Tt \t].*)?$/),
  // YAML 1.1's merge key and its value key (`=`), as keys and as values
  quoted(/^(?:<<|=)$/),
];

/**
 * yaml v2's options for text every reader above reads as we meant it: the 1.1 schema, quoting for
 * the others, and no merge tag, which would write a `<<` string as a bare merge key.
 */
export const READER_SAFE: DocumentOptions & SchemaOptions = {
  version: '1.1',
  compat: COMPAT,
  customTags: (tags) => tags.filter((t) => (typeof t === 'string' ? t : t.tag) !== 'tag:yaml.org,2002:merge'),
};

/** Whether yaml v2 with READER_SAFE writes this string quoted because a plain scalar would read as another type. */
export const retyped: (text: string) => boolean = (() => {
  const schema = new Document(null, READER_SAFE).schema;
  const tests = [...schema.tags, ...(schema.compat ?? [])]
    .filter((tag) => tag.default && tag.tag !== 'tag:yaml.org,2002:str' && tag.test)
    .map((tag) => tag.test!);
  return (text) => tests.some((re) => re.test(text));
})();

const UNPRINTABLE_BUT_NEWLINE = new RegExp(`(?!\\n)${UNPRINTABLE.source}`, 'gu');

/**
 * yaml v2's text of a value (or a document built elsewhere, with comments), where every string
 * that holds an unprintable character, `##[` or a line starting with `::` (diagnostics/printable.ts)
 * is written double-quoted on one line, those characters as escapes (`\x85`, `\u202e`, `##\x5b`):
 * the same string to every YAML reader, and nothing a terminal or the Actions runner acts on when
 * the file is printed (`import` prints its definition). YAML 1.1 does not even allow C1 controls
 * unescaped (its c-printable), so go-yaml would refuse such a file. Other text is yaml v2's own.
 */
export function printableYaml(value: unknown, options: DocumentOptions & SchemaOptions & CreateNodeOptions & ToStringOptions): string {
  const doc = value instanceof Document ? value : new Document(value, options);
  // `as boolean`: the visitor sets it, which narrowing from `false` does not see
  let escaped = false as boolean;
  visit(doc, {
    Scalar(_, node) {
      if (typeof node.value !== 'string' || !needsEscapes(node.value)) return;
      node.type = 'QUOTE_DOUBLE';
      escaped = true;
    },
  });
  if (!escaped) return doc.toString(options);
  // one line per string: yaml v2 would otherwise break a long double-quoted string at its newlines
  return doc
    .toString({ ...options, doubleQuotedMinMultiLineLength: Number.MAX_SAFE_INTEGER })
    .replace(UNPRINTABLE_BUT_NEWLINE, escapeCode)
    .replace(/##\[/g, '##\\x5b');
}
