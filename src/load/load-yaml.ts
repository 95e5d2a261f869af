import { isAlias, isMap, isPair, isScalar, isSeq, LineCounter, parseAllDocuments, type Document, type Node } from 'yaml';
import type { DataPath, Diagnostic } from '../diagnostics/diagnostic';
import { LineIndex, type SourceFile, type Span } from './source-file';

/** Hostile or broken input must be refused quickly, before it can hang or exhaust the compiler. */
export const YAML_LIMITS = {
  // a 10,000-cluster definition is about 1.5 MB; 8 MiB leaves room and still refuses junk
  maxBytes: 8 * 1024 * 1024,
  maxDepth: 64,
  maxAliasCount: 100,
  /** the data after aliases are expanded may be no larger than a file without aliases could be */
  maxExpandedBytes: 8 * 1024 * 1024,
  /** one value: well below the 1 MiB the API server stores per object, which holds it */
  maxStringBytes: 256 * 1024,
};

/** The tags of the JSON data model (YAML 1.2 core schema); anything else has no place in a definition. */
const JSON_TAGS = new Set(['str', 'int', 'float', 'bool', 'null', 'map', 'seq'].map((t) => `tag:yaml.org,2002:${t}`));

/** Keys that would reach Object.prototype when data is copied into plain objects. */
const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/** Reports a YAML diagnostic at an offset of the text. */
type At = (code: 'yaml-syntax' | 'yaml-limits', offset: number, message: string, hint?: string, end?: number) => void;

/**
 * One YAML document's data and how to locate a path in it, or undefined with its diagnostics:
 * the limits before parsing, the parser's errors, one document, the limits of the composed tree,
 * then the data. `limits`: a live cluster dump (src/live/) is larger than a definition can be.
 * `parsed`: documents that passed already (ParsedYaml), reused for the same text and limits.
 */
export function loadYaml(
  file: string,
  text: string,
  diagnostics: Diagnostic[],
  limits: typeof YAML_LIMITS = YAML_LIMITS,
  parsed?: ParsedYaml,
): SourceFile | undefined {
  const known = parsed?.get(text, limits);
  // the same checks passed on the same text: only the data is made again, fresh for this caller
  if (known) return sourceOf(file, text, known.doc, known.lines, known.doc.toJS({ maxAliasCount: limits.maxAliasCount }));
  const lines = new LineIndex(text);
  const at: At = (code, offset, message, hint, end = offset) => {
    const s = lines.span(offset, end);
    diagnostics.push({ code, severity: 'error', message, file, path: [], ...s, ...(hint ? { hint } : {}) });
  };
  const docs = parse(text, limits, at);
  if (!docs || !withoutErrors(docs, text, limits, at)) return undefined;
  if (docs.length !== 1) {
    at(
      'yaml-syntax',
      docs[1]?.range[0] ?? 0,
      docs.length === 0 ? 'file holds no YAML document' : 'file holds more than one YAML document',
      'keep one ClusterSet definition per file',
    );
    return undefined;
  }
  const doc = docs[0]!;
  const data = dataOf(doc, text, limits, at);
  if (data === NO_DATA) return undefined;
  parsed?.set(text, limits, { doc, lines });
  return sourceOf(file, text, doc, lines, data.value);
}

function sourceOf(file: string, text: string, doc: Document.Parsed, lines: LineIndex, data: unknown): SourceFile {
  return { file, text, data, locate: (path, options) => locateInDocument(doc, lines, path, options?.key ?? false) };
}

/**
 * The documents a process parsed and found within the limits, by text: a dump read again (by
 * each `drift` or `plan --live` of a process, such as a test worker's) skips the parser, the
 * larger part of reading it. Entries are kept up to `maxLength` characters of text together,
 * the oldest dropped first; a text with a diagnostic is never kept, so a diagnostic is always found anew.
 */
export class ParsedYaml {
  private readonly entries = new Map<string, { limits: typeof YAML_LIMITS; doc: Document.Parsed; lines: LineIndex }>();
  private length = 0;
  constructor(private readonly maxLength: number) {}
  get(text: string, limits: typeof YAML_LIMITS): { doc: Document.Parsed; lines: LineIndex } | undefined {
    const entry = this.entries.get(text);
    return entry?.limits === limits ? entry : undefined;
  }
  set(text: string, limits: typeof YAML_LIMITS, parsed: { doc: Document.Parsed; lines: LineIndex }): void {
    if (text.length > this.maxLength || this.entries.has(text)) return;
    for (const old of this.entries.keys()) {
      if (this.length + text.length <= this.maxLength) break;
      this.entries.delete(old);
      this.length -= old.length;
    }
    this.entries.set(text, { limits, ...parsed });
    this.length += text.length;
  }
}

/** The documents, or undefined when the text is too large or too deep to parse. */
function parse(text: string, limits: typeof YAML_LIMITS, at: At): Document.Parsed[] | undefined {
  if (Buffer.byteLength(text, 'utf8') > limits.maxBytes) {
    at('yaml-limits', 0, `file is larger than ${limits.maxBytes} bytes`, 'even a fleet of ten thousand clusters fits in a few megabytes; check the file');
    return undefined;
  }
  const flowDepth = maxFlowDepth(text);
  if (flowDepth.depth > limits.maxDepth) {
    at('yaml-limits', flowDepth.offset, `nesting is deeper than ${limits.maxDepth} levels`);
    return undefined;
  }
  const lineCounter = new LineCounter();
  try {
    const docs = parseAllDocuments(text, { lineCounter, prettyErrors: false, uniqueKeys: true, strict: true }) as Document.Parsed[];
    return Array.isArray(docs) ? docs : [docs];
  } catch (err) {
    if (err instanceof RangeError) {
      at('yaml-limits', 0, `nesting is deeper than ${limits.maxDepth} levels`);
      return undefined;
    }
    throw err;
  }
}

/** Whether the parser found no error; each one it found is reported once, where the user can fix it. */
function withoutErrors(docs: readonly Document.Parsed[], text: string, limits: typeof YAML_LIMITS, at: At): boolean {
  let failed = false;
  for (const doc of docs) {
    // the composer's stack overflowed on nesting the pre-check could not see (block collections);
    // the part it did compose is deep enough to locate the first level past the limit
    if (doc.errors.some((e) => e.code === 'RESOURCE_EXHAUSTION')) {
      const limit = checkTree(doc, text, limits);
      const pos = doc.errors.find((e) => e.code === 'RESOURCE_EXHAUSTION')!.pos[0];
      at('yaml-limits', limit?.offset ?? pos, limit?.message ?? `nesting is deeper than ${limits.maxDepth} levels`);
      return false;
    }
    let indented: { start: number; end: number } | undefined;
    // a tab or a mis-indented line moves the keys after it into other mappings: a key found twice
    // there is the parser's misreading, not a second mistake
    const misread = doc.errors.some((e) => e.code === 'TAB_AS_INDENT' || INDENTATION_ERRORS.has(e.code));
    for (const e of doc.errors) {
      failed = true;
      if (misread && e.code === 'DUPLICATE_KEY') continue;
      // the rest of a mis-indented line is misread too (as a multi-line implicit key): the line's one diagnostic says why
      if (indented && e.pos[0] >= indented.start && e.pos[0] <= indented.end) continue;
      if (!INDENTATION_ERRORS.has(e.code)) {
        at('yaml-syntax', e.pos[0], lowerFirst(e.message.split('\n')[0]!), yamlHint(e.code), e.pos[1]);
        continue;
      }
      // one mis-indented line makes every later line of its block an error too: report the first,
      // at the line's first character, against the line above it
      if (indented) continue;
      const line = indentationAt(text, e.pos[0]);
      indented = line;
      at('yaml-syntax', line.start, `this line is indented to column ${line.column}, which matches no block above it`, line.hint, line.end);
    }
  }
  return !failed;
}

const NO_DATA = Symbol('no data');

/** The document's data, or NO_DATA when its tree or its expanded aliases pass the limits. */
function dataOf(doc: Document.Parsed, text: string, limits: typeof YAML_LIMITS, at: At): { value: unknown } | typeof NO_DATA {
  const walked: Walked = { size: 0, aliases: false };
  const limit = checkTree(doc, text, limits, walked);
  if (limit) {
    at(limit.code ?? 'yaml-limits', limit.offset, limit.message, limit.hint);
    return NO_DATA;
  }
  const aliases = 'anchors and aliases that multiply into large data are refused';
  // without an alias the tree is the data: its size was counted on the walk
  if ((walked.aliases ? expandedSize(doc, limits) : walked.size) > limits.maxExpandedBytes) {
    at('yaml-limits', 0, `the data is larger than ${limits.maxExpandedBytes} bytes once its aliases are expanded`, aliases);
    return NO_DATA;
  }
  try {
    return { value: doc.toJS({ maxAliasCount: limits.maxAliasCount }) };
  } catch (err) {
    if (err instanceof ReferenceError || err instanceof RangeError) {
      at('yaml-limits', 0, 'alias expansion exceeds safe limits', aliases);
      return NO_DATA;
    }
    throw err;
  }
}

/** What a walk of the tree counted: expandedSize's measure of it, and whether it holds an alias (then that measure is not the data's). */
interface Walked {
  size: number;
  aliases: boolean;
}

/**
 * Walks the composed tree without recursion: depth, forbidden keys, tags outside JSON; on the way
 * it counts into `walked` what expandedSize counts (each node 1, a scalar its text's length).
 */
function checkTree(
  doc: Document.Parsed,
  text: string,
  limits: typeof YAML_LIMITS,
  walked: Walked = { size: 0, aliases: false },
): { offset: number; message: string; code?: 'yaml-syntax'; hint?: string } | undefined {
  const stack: [unknown, number][] = [[doc.contents, 1]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    walked.size += isScalar(node) ? 1 + String(node.value).length : 1;
    if (isAlias(node)) walked.aliases = true;
    if (depth > limits.maxDepth && (isMap(node) || isSeq(node))) {
      return { offset: (node as Node).range?.[0] ?? 0, message: `nesting is deeper than ${limits.maxDepth} levels` };
    }
    const tag = (node as Node | null)?.tag;
    if (tag !== undefined && !JSON_TAGS.has(tag)) {
      // the tag itself precedes the node's range; point at the tag where the source has it
      const start = (node as Node).range?.[0] ?? 0;
      const shown = tag.startsWith('tag:yaml.org,2002:') ? `!!${tag.slice('tag:yaml.org,2002:'.length)}` : tag;
      const offset = tagOffset(text, start);
      return {
        code: 'yaml-syntax',
        offset,
        message: `tag ${shown} is outside the JSON data model`,
        hint: 'a definition holds only strings, numbers, booleans, null, mappings and lists; remove the tag (quote the value to keep it as a string)',
      };
    }
    if (isScalar(node) && typeof node.value === 'string' && node.value.length > limits.maxStringBytes) {
      return {
        offset: node.range?.[0] ?? 0,
        message: `a value of ${node.value.length} characters is longer than ${limits.maxStringBytes}`,
        hint: 'the object it ends up in must stay under the 1 MiB an API server stores; keep large content out of the definition',
      };
    }
    if (isMap(node)) {
      for (const pair of node.items) {
        if (isScalar(pair.key) || isMap(pair.key) || isSeq(pair.key)) stack.push([pair.key, depth + 1]);
        else if (isAlias(pair.key)) walked.aliases = true;
        else walked.size += 1;
        if (isScalar(pair.key) && FORBIDDEN_KEYS.has(String(pair.key.value))) {
          return { offset: pair.key.range?.[0] ?? 0, message: `key "${String(pair.key.value)}" is not allowed` };
        }
        stack.push([pair.value, depth + 1]);
      }
    } else if (isSeq(node)) {
      for (const item of node.items) stack.push([item, depth + 1]);
    }
  }
  return undefined;
}

/** Where a node's tag is written: the node's range starts after it, at the `!` before it. */
function tagOffset(text: string, start: number): number {
  let i = text.lastIndexOf('!', Math.max(0, start - 1));
  if (i < 0) return start;
  while (i > 0 && text[i - 1] === '!') i--;
  return i;
}

/**
 * The size of the data once aliases are expanded, without expanding them: an alias costs the
 * size of its target, computed once per target.
 */
function expandedSize(doc: Document.Parsed, limits: typeof YAML_LIMITS): number {
  const sizes = new Map<unknown, number>();
  const sizeOf = (node: unknown, depth: number): number => {
    if (depth > limits.maxDepth * 4) return Infinity;
    if (isAlias(node)) return sizeOf(node.resolve(doc), depth + 1);
    const known = sizes.get(node);
    if (known !== undefined) return known;
    sizes.set(node, Infinity); // an alias inside its own anchor expands forever
    let size = 1;
    if (isMap(node)) for (const pair of node.items) size += sizeOf(pair.key, depth + 1) + sizeOf(pair.value, depth + 1);
    else if (isSeq(node)) for (const item of node.items) size += sizeOf(item, depth + 1);
    else if (isScalar(node)) size += String(node.value).length;
    sizes.set(node, size);
    return size;
  };
  return sizeOf(doc.contents, 0);
}

/** Deepest run of `[`/`{` outside quotes; a cheap guard before the recursive composer runs. */
function maxFlowDepth(text: string): { depth: number; offset: number } {
  let depth = 0;
  let max = 0;
  let at = 0;
  let quote = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quote) {
      if (c === quote) quote = '';
      else if (c === '\\' && quote === '"') i++;
      continue;
    }
    // a quote opens a quoted scalar only where a scalar starts; in "it's" it is a plain character
    if ((c === '"' || c === "'") && startsScalar(text, i)) quote = c;
    else if (c === '#' && (i === 0 || /\s/.test(text[i - 1]!))) {
      const nl = text.indexOf('\n', i);
      i = nl === -1 ? text.length : nl;
    } else if (c === '[' || c === '{') {
      depth++;
      if (depth > max) {
        max = depth;
        at = i;
      }
      if (max > YAML_LIMITS.maxDepth) break;
    } else if (c === ']' || c === '}') depth = Math.max(0, depth - 1);
    else if (c === '\n' && depth === 0) quote = '';
  }
  return { depth: max, offset: at };
}

/** Whether a scalar can start at `i`: first on its line, or after an indicator (`: `, `- `, `[`, `{`, `,`, `? `). */
function startsScalar(text: string, i: number): boolean {
  let j = i - 1;
  while (j >= 0 && (text[j] === ' ' || text[j] === '\t')) j--;
  return j < 0 || '\r\n[{,:-?'.includes(text[j]!);
}

function locateInDocument(doc: Document.Parsed, lines: LineIndex, path: DataPath, key: boolean): Span {
  let node: unknown = doc.contents;
  let best: [number, number] = rangeOf(node) ?? [0, 0];
  for (let i = 0; i < path.length; i++) {
    if (isAlias(node)) node = node.resolve(doc);
    const segment = path[i];
    const last = i === path.length - 1;
    if (isMap(node)) {
      const pair = node.items.find((p) => isPair(p) && isScalar(p.key) && String(p.key.value) === String(segment));
      if (!pair) break;
      const keyRange = rangeOf(pair.key);
      const valueRange = rangeOf(pair.value);
      if (last && key && keyRange) return lines.span(keyRange[0], keyRange[1]);
      // a key with an empty value: point at the key
      best = valueRange && valueRange[1] > valueRange[0] ? valueRange : (keyRange ?? best);
      node = pair.value;
    } else if (isSeq(node) && typeof segment === 'number' && segment < node.items.length) {
      node = node.items[segment];
      best = rangeOf(node) ?? best;
    } else {
      break;
    }
  }
  return lines.span(best[0], best[1]);
}

function rangeOf(node: unknown): [number, number] | undefined {
  const range = (node as Node | null)?.range;
  return range ? [range[0], range[1]] : undefined;
}

const lowerFirst = (s: string) => s.charAt(0).toLowerCase() + s.slice(1);

/** Errors that a line indented too far or not far enough causes, and the lines after it. */
const INDENTATION_ERRORS = new Set(['BAD_INDENT', 'MISSING_CHAR', 'UNEXPECTED_TOKEN', 'BLOCK_AS_IMPLICIT_KEY']);

/** The line holding `offset`: its first non-blank character and how the line above it is indented. */
function indentationAt(text: string, offset: number): { start: number; end: number; column: number; hint: string } {
  const lineStart = text.lastIndexOf('\n', Math.max(0, offset - 1)) + 1;
  const lineEnd = text.indexOf('\n', lineStart) === -1 ? text.length : text.indexOf('\n', lineStart);
  const line = text.slice(lineStart, lineEnd);
  const indent = line.length - line.trimStart().length;
  // the nearest non-blank, non-comment line above: where its keys start (after "- " for a list item)
  const above = text
    .slice(0, Math.max(0, lineStart - 1))
    .split('\n')
    .reverse()
    .find((l) => l.trim() !== '' && !l.trim().startsWith('#'));
  const keyColumn = above === undefined ? undefined : above.length - above.trimStart().length + (/^\s*- /.test(above) ? 2 : 0) + 1;
  return {
    start: lineStart + indent,
    end: lineEnd,
    column: indent + 1,
    hint:
      keyColumn === undefined || keyColumn === indent + 1
        ? 'check the indentation of this line against its parent'
        : `the line above starts its keys at column ${keyColumn}: indent this line the same to continue that block, or less to close it`,
  };
}

function yamlHint(code: string): string | undefined {
  switch (code) {
    case 'DUPLICATE_KEY':
      return 'each key may appear once per mapping; merge the two entries';
    case 'TAB_AS_INDENT':
      return 'indent with spaces, not tabs';
    case 'BAD_INDENT':
    case 'MISSING_CHAR':
      return 'check the indentation of this line against its parent';
    default:
      return undefined;
  }
}
