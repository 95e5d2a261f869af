import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';

// The docs name the code by its paths and its functions, and a move leaves them naming what is
// gone (#41: "docs/architecture.md and CONTRIBUTING.md true sentence by sentence"). Each backticked
// path of the repository's own code must exist, and each name given with its file ("`layoutBundle`
// (`layout/layout.ts`)", "`layout/layout.ts` `layoutBundle`") must be in that file.

const ROOT = join(import.meta.dirname, '../..');
const DOCS = ['docs/architecture.md', 'CONTRIBUTING.md', 'docs/delivery.md', 'docs/security.md', 'README.md', 'test/engine-replay/README.md'];
/** Paths a doc names that do not exist on purpose: the release "Adding v2.8" walks through creating. */
const HYPOTHETICAL = new Set(['src/antrea/v2.8.0/index.ts']);

const FILES: readonly string[] = ['src', 'test', 'bench', 'scripts', 'examples'].flatMap((dir) =>
  readdirSync(join(ROOT, dir), { recursive: true, encoding: 'utf8' }).map((f) => `${dir}/${f.split('\\').join('/')}`),
);
const CODE = /[\w-]\.(ts|mts|cts|mjs|cjs)$/;
// docs/… is left out: docs/delivery.md cites the engines' own docs/ by path
const ROOTED = /^(src|test|bench|scripts)\//;

/** The repository files a backticked path can mean: as written from the root, from src/, or a file it ends (`layout.ts`, `argocd/applications.ts`). */
function filesNamed(path: string): string[] {
  if (existsSync(join(ROOT, path))) return [path];
  if (ROOTED.test(path)) return [];
  if (existsSync(join(ROOT, 'src', path))) return [`src/${path}`];
  return FILES.filter((f) => f.endsWith(`/${path}`));
}

/**
 * The backticked paths of the repository's own code in a doc: rooted ones (`src/…`, `test/…`) and
 * code file names; placeholders (`<id>`, `*`) are not matched, and neither are the build's output
 * (`lib/…`) nor the reference folder beside the repository (`../shared/…`).
 */
export function codePaths(markdown: string): string[] {
  const paths = [...markdown.matchAll(/`([\w./-]+)`/g)].map((m) => m[1]!);
  return [...new Set(paths.filter((p) => !p.startsWith('../') && !p.startsWith('lib/') && (ROOTED.test(p) || CODE.test(p))))];
}

/** Names given with their file: "`name` (`file`", "`name` of|in|from `file`", "`file` `name`", "(`file`: `name`". */
export function namesWithFiles(markdown: string): { name: string; path: string }[] {
  const text = markdown.replace(/\n/g, ' ');
  const id = '([A-Za-z_][\\w.]*)(?:\\(\\))?';
  const file = '([\\w./-]+\\.(?:ts|mts|cts|mjs|cjs))';
  const pairs: { name: string; path: string }[] = [];
  for (const m of text.matchAll(new RegExp(`\`${id}\` \\(\`${file}\``, 'g'))) pairs.push({ name: m[1]!, path: m[2]! });
  for (const m of text.matchAll(new RegExp(`\`${id}\`,? (?:of|in|from) \`${file}\``, 'g'))) pairs.push({ name: m[1]!, path: m[2]! });
  for (const m of text.matchAll(new RegExp(`\`${file}\` \`${id}\``, 'g'))) pairs.push({ name: m[2]!, path: m[1]! });
  for (const m of text.matchAll(new RegExp(`\\(\`${file}\`: \`${id}\``, 'g'))) pairs.push({ name: m[2]!, path: m[1]! });
  // `DeliveryEngine.instanceOf` is looked for as its last part
  return pairs.map(({ name, path }) => ({ name: name.split('.').at(-1)!, path }));
}

export function missingPaths(markdown: string): string[] {
  return codePaths(markdown).filter((p) => !HYPOTHETICAL.has(p) && filesNamed(p.replace(/\/$/, '')).length === 0);
}

export function namesNotInTheirFile(markdown: string): string[] {
  return namesWithFiles(markdown)
    .filter(({ name, path }) => {
      const files = filesNamed(path);
      return files.length > 0 && !files.some((f) => new RegExp(`\\b${name.replace(/\$/g, '\\$')}\\b`).test(readFileSync(join(ROOT, f), 'utf8')));
    })
    .map(({ name, path }) => `${name} (${path})`);
}

const read = (doc: string) => readFileSync(join(ROOT, doc), 'utf8');

describe.each(DOCS)('%s names code that exists', (doc) => {
  test('every backticked path of our code exists', () => {
    expect(codePaths(read(doc)).length).toBeGreaterThan(0);
    expect(missingPaths(read(doc))).toEqual([]);
  });

  test('every name given with its file is in that file', () => {
    expect(namesNotInTheirFile(read(doc))).toEqual([]);
  });
});

describe('the checks see a doc that drifted', () => {
  const ARCHITECTURE = read('docs/architecture.md');
  const CONTRIBUTING = read('CONTRIBUTING.md');

  test.each([
    // the folders and files #41 moved or deleted, written back into the docs
    ['a file of a folder that moved', ARCHITECTURE, '`layout/layout.ts`', '`emit/layout.ts`', ['emit/layout.ts']],
    ['a rooted path that moved', CONTRIBUTING, '`src/layout/schemas.ts`', '`src/emit/schemas.ts`', ['src/emit/schemas.ts']],
    ['a folder that moved', CONTRIBUTING, '`src/delivery/`', '`src/synth/delivery/`', ['src/synth/delivery/']],
    ['a test file that is gone', ARCHITECTURE, '`test/output/kill-9.test.ts`', '`test/output/kill-nine.test.ts`', ['test/output/kill-nine.test.ts']],
  ])('%s', (_, doc, from, to, expected) => {
    const edited = doc.replace(from, to);
    expect(edited).not.toBe(doc);
    expect(missingPaths(edited)).toEqual(expected);
  });

  test.each([
    [
      'a function deleted from its file',
      ARCHITECTURE,
      '`layout/layout.ts` `layoutBundle`',
      '`layout/layout.ts` `layoutClusterSet`',
      ['layoutClusterSet (layout/layout.ts)'],
    ],
    [
      'a function named with the wrong file',
      ARCHITECTURE,
      '`deliverySources`,\n   `delivery/index.ts`',
      '`deliverySources` (`delivery/registry.ts`',
      ['deliverySources (delivery/registry.ts)'],
    ],
    [
      'a function of the wrong module',
      CONTRIBUTING,
      '`diagnosticStyle` (`src/diagnostics/diagnostic-style.ts`)',
      '`diagnosticStyle` (`src/diagnostics/render.ts`)',
      ['diagnosticStyle (src/diagnostics/render.ts)'],
    ],
  ])('%s', (_, doc, from, to, expected) => {
    const edited = doc.replace(from, to);
    expect(edited).not.toBe(doc);
    expect(namesNotInTheirFile(edited)).toEqual(expected);
  });
});

// The source comments name files too ("a code span (markdown.ts `code`)", "read-dump.ts"), and a
// move left four naming what was gone (#53 item 3). A comment's file name, rooted or not, must be
// a file of the repository, unless it is one of the upstream files a comment cites.
/** Upstream files our comments cite by name (mermaid's sources), not ours. */
const UPSTREAM = new Set(['mermaidAPI.ts', 'flowDb.ts']);
/** Files a test's comment names on purpose because they do not exist (its rows' inputs). */
const ABSENT_ON_PURPOSE = new Set(['src/new-folder/thing.ts', 'test/layout/layout.test.ts', 'src/validate/rules/cidr-overlap.ts', './x.ts']);

/** The comments of a TypeScript or JavaScript file: line and block comments (a string holding `//` is rare enough to be read as one). */
export function comments(source: string): string[] {
  // strings are matched first so that a glob in one ('src/**/*.ts') opens no comment
  const tokens = /'(?:\\.|[^'\\\n])*'|"(?:\\.|[^"\\\n])*"|`(?:\\.|[^`\\])*`|\/\*[\s\S]*?\*\/|(?<![:\\])\/\/[^\n]*/g;
  return [...source.matchAll(tokens)].map((m) => m[0]).filter((t) => t.startsWith('/'));
}

/** The code files a comment names that the repository does not hold. */
export function missingInComment(comment: string): string[] {
  const named = [...comment.matchAll(/(?<![\w./@:-])((?:\.\/)?[\w-]+(?:\/[\w.-]+)*\.(?:ts|mts|cts|mjs|cjs))\b/g)].map((m) => m[1]!);
  return [...new Set(named)].filter((p) => !UPSTREAM.has(p) && !ABSENT_ON_PURPOSE.has(p) && filesNamed(p).length === 0);
}

// this file's own rows name gone files on purpose
const SOURCES = FILES.filter((f) => CODE.test(f) && !f.startsWith('examples/') && f !== 'test/docs/named-code.test.ts');

test('every file a source comment names exists', () => {
  const missing = SOURCES.flatMap((f) => comments(read(f)).flatMap((c) => missingInComment(c).map((p) => `${f}: ${p}`)));
  expect(SOURCES.length).toBeGreaterThan(200);
  expect(missing).toEqual([]);
});

test.each([
  ['a rooted file that is gone', '// see src/layout/gone-rule.ts for the rule', ['src/layout/gone-rule.ts']],
  ['a file of a folder, gone', '/** a code span (plan/notes-markdown.ts) */', ['plan/notes-markdown.ts']],
  ['a bare file name that is gone', ' * dumps (inventory-from-dumps.ts)', []],
  ['a bare file name, gone, in a comment', '// dumps (inventory-from-dumps.ts)', ['inventory-from-dumps.ts']],
  ['a file that exists', '// the dumps read-dump.ts reads', []],
  ['an upstream file', '// mermaid: flowDb.ts `addLink`', []],
  ['a file name in a URL is not ours', '// https://example.com/a/gone.ts', []],
  ['a glob in a string opens no comment', "const files = ['src/**/*.ts']; join('src', 'gone.ts'); // ok", []],
])('a source comment: %s', (_, source, expected) => {
  expect(comments(source).flatMap(missingInComment)).toEqual(expected);
});
