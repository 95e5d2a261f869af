// YAML as yaml v2 writes it under the 1.1 schema, with no folding (lineWidth 0), for the shapes
// Kubernetes objects and config files are made of, at a tenth of yaml v2's cost: a fleet writes
// every member's objects. Where this writer is not sure of the bytes it answers undefined and the
// caller asks yaml v2 (serialize.ts `toYaml`, workloads/config-file.ts); equality with yaml v2 is
// a property test (test/yaml/fast-yaml.test.ts).
import { retyped } from './yaml-readers';
import { needsEscapes } from '../diagnostics/printable';

const FIRST = ['apiVersion', 'kind', 'metadata'];

/** an array index: an object lists these keys first, in numeric order, whatever order they were inserted in */
const isIndex = (key: string) => /^(0|[1-9][0-9]{0,9})$/.test(key) && Number(key) < 2 ** 32 - 1;

/** The keys of canonical(value) in the order of Object.keys(canonical(value)), which yaml v2 writes. */
function canonicalOrder(value: Record<string, unknown>, top: boolean): string[] {
  const keys = sortedKeys(value, top);
  if (!keys.some(isIndex)) return keys;
  return [...keys.filter(isIndex).sort((a, b) => Number(a) - Number(b)), ...keys.filter((k) => !isIndex(k))];
}

/** Keys sorted, with apiVersion, kind and metadata first at the top (as cdk8s); undefined values have none. */
export function sortedKeys(value: Record<string, unknown>, top: boolean): string[] {
  const keys = Object.keys(value).filter((k) => value[k] !== undefined);
  return keys.sort((a, b) => {
    if (top) {
      const ia = FIRST.indexOf(a);
      const ib = FIRST.indexOf(b);
      if (ia !== -1 || ib !== -1) return (ia === -1 ? 99 : ia) - (ib === -1 ? 99 : ib);
    }
    return a < b ? -1 : a > b ? 1 : 0;
  });
}

/** yaml v2's own test for a plain scalar that needs quotes (stringifyString.js, `plainString`). */
const UNSAFE_PLAIN = /^[\n\t ,[\]{}#&*!|>'"%@`]|^[?-]$|^[?-][ \t]|[\n:][ \t]|[ \t]\n|[\n\t ]#|[\n\t :]$/;
const DOCUMENT_MARKER = /^(%|---|\.\.\.)/m;
/**
 * Printable text and newlines only: yaml v2 escapes control characters and lone surrogates, and
 * YAML reads U+2028, U+2029 and U+FEFF specially; those, and characters beyond the Basic
 * Multilingual Plane, are left to it, as is any text `needsEscapes` (format characters, `##[`, a
 * line starting with `::`), which serialize.ts writes with escapes.
 */
const OUTSIDE_FAST = /[^\x20-\x7e\n\xa0-\u2027\u202a-\ud7ff\ue000-\ufefe\uff00-\ufffd]/;

/** thrown (one instance, no stack to capture) where the fast writer leaves a document to yaml v2 */
class Unsupported extends Error {}
const UNSUPPORTED = new Unsupported();

/**
 * The YAML yaml v2 writes for canonical(value) with the serializer's options (kube/serialize.ts, `toYaml`), or
 * for the value as it is (`as-is`), or undefined where this writer
 * does not know the bytes for certain: a key or value with a character outside `OUTSIDE_FAST`'s
 * printable set, a number other than a safe integer, a multi-line string with leading or trailing white space or inside a
 * sequence, a document marker. Equality with yaml v2 is a property test (test/yaml/fast-yaml).
 */
export function fastYaml(value: unknown, order: KeyOrder = 'canonical'): string | undefined {
  if (!isPlainObject(value)) return undefined;
  const writer: Writer = { order, seen: new Set() };
  const keys = keysOf(writer, value, true);
  if (keys.length === 0) return undefined;
  const out: string[] = [];
  try {
    writeMap(writer, value, keys, '', out, false);
  } catch (err) {
    if (err === UNSUPPORTED) return undefined;
    throw err;
  }
  return out.join('');
}

/**
 * `canonical`: the bytes of toYaml (keys sorted, no anchors). `as-is`: those of
 * `stringify(value, { ...READER_SAFE, lineWidth: 0 })`, keys in the value's own order; yaml v2
 * anchors an object met twice there, which is left to it.
 */
export type KeyOrder = 'canonical' | 'as-is';

interface Writer {
  readonly order: KeyOrder;
  readonly seen: Set<object>;
}

function keysOf(writer: Writer, value: Record<string, unknown>, top: boolean): string[] {
  if (writer.order === 'canonical') return canonicalOrder(value, top);
  if (writer.seen.has(value)) throw UNSUPPORTED;
  writer.seen.add(value);
  return Object.keys(value).filter((k) => value[k] !== undefined);
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && (Object.getPrototypeOf(value) === Object.prototype || Object.getPrototypeOf(value) === null);

/** A non-empty map's lines at `indent`; `inline`: its first line follows a sequence's `- `. */
function writeMap(writer: Writer, map: Record<string, unknown>, keys: readonly string[], indent: string, out: string[], inline: boolean): void {
  keys.forEach((key, i) => {
    if (i > 0 || !inline) out.push(indent);
    out.push(scalarKey(key), ':');
    writeValue(writer, map[key], indent, out);
  });
}

/** A non-empty sequence's lines at `indent`; `inline`: its first line follows a sequence's `- `. */
function writeSeq(writer: Writer, seq: readonly unknown[], indent: string, out: string[], inline: boolean): void {
  if (writer.order === 'as-is') {
    if (writer.seen.has(seq)) throw UNSUPPORTED;
    writer.seen.add(seq);
  }
  seq.forEach((item, i) => {
    if (i > 0 || !inline) out.push(indent);
    out.push('-');
    writeValue(writer, item, indent, out, true);
  });
}

/** After `key:` or `-`: a scalar or an empty collection on the same line, or a collection (below a key, beside a `-`). */
function writeValue(writer: Writer, value: unknown, indent: string, out: string[], inSeq = false): void {
  const child = `${indent}  `;
  if (Array.isArray(value)) {
    if (value.length === 0) out.push(' []\n');
    else {
      out.push(inSeq ? ' ' : '\n');
      writeSeq(writer, value, child, out, inSeq);
    }
  } else if (typeof value === 'object' && value !== null) {
    if (!isPlainObject(value)) throw UNSUPPORTED;
    const keys = keysOf(writer, value, false);
    if (keys.length === 0) out.push(' {}\n');
    else {
      out.push(inSeq ? ' ' : '\n');
      writeMap(writer, value, keys, child, out, inSeq);
    }
  } else if (typeof value === 'string' && value.includes('\n')) {
    if (inSeq) throw UNSUPPORTED;
    out.push(' ', literalBlock(value, child), '\n');
  } else out.push(' ', scalar(value), '\n');
}

function scalar(value: unknown): string {
  if (value === null) return 'null';
  if (value === true) return 'true';
  if (value === false) return 'false';
  if (typeof value === 'number' && Number.isSafeInteger(value) && !Object.is(value, -0)) return String(value);
  if (typeof value === 'string') return singleLine(value);
  throw UNSUPPORTED;
}

const scalarKey = (key: string): string => {
  if (key.length > 1000) throw UNSUPPORTED;
  return singleLine(key);
};

/** Keys and values recur across objects (a fleet's `name`, `kube-system`, `antrea`): each is decided once. */
const written = new Map<string, string>();

/** Plain where yaml v2 writes it plain; otherwise its quotes (single when the text holds `"` and no `'`). */
function singleLine(text: string): string {
  let out = written.get(text);
  if (out !== undefined) return out;
  if (OUTSIDE_FAST.test(text) || text.includes('\n') || DOCUMENT_MARKER.test(text) || needsEscapes(text)) throw UNSUPPORTED;
  if (!UNSAFE_PLAIN.test(text) && !retyped(text)) out = text;
  else out = text.includes('"') && !text.includes("'") ? `'${text}'` : JSON.stringify(text);
  if (written.size >= 65536) written.clear();
  written.set(text, out);
  return out;
}

/**
 * yaml v2's literal block (`blockString`) for the texts it is exact for here: no white space
 * before the first line or after the last, at most one final newline (clip `|` or strip `|-`).
 */
function literalBlock(text: string, indent: string): string {
  if (OUTSIDE_FAST.test(text) || DOCUMENT_MARKER.test(text) || /^[ \n]/.test(text) || needsEscapes(text)) throw UNSUPPORTED;
  const clip = text.endsWith('\n');
  const body = clip ? text.slice(0, -1) : text;
  if (/[\n\t ]$/.test(body)) throw UNSUPPORTED;
  return `|${clip ? '' : '-'}\n${indent}${body.replace(/\n+/g, `$&${indent}`)}`;
}
