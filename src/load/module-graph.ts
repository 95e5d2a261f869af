import { lstatSync, statSync } from 'node:fs';
import { dirname, extname, join, relative, sep } from 'node:path';
import { readInFolder, type DefinitionFolder, type Refusal } from './definition-folder';
import { LineIndex } from './source-file';
import type { Ts } from './typescript-package';

/** One module handed to the sandbox: its code as text, and where each of its literal requires leads. */
export interface SandboxModule {
  /** its real path relative to the definition's folder, `/`-separated */
  readonly id: string;
  /** JavaScript (CommonJS, transpiled here) or the text of a JSON file */
  readonly kind: 'js' | 'json';
  readonly code: string;
  /** specifier → module id, or HELPERS for the package's own helpers */
  readonly requires: Readonly<Record<string, string>>;
}

/** The id under which a definition's import of the package gets its helpers (`defineClusterSet`). */
export const HELPERS = '#antrea-clusterset';
const PACKAGE = 'antrea-clusterset';

export interface GraphLimits {
  readonly maxModules: number;
  readonly maxSourceBytes: number;
}

/** A transpiled module's TypeScript source and source map, to place what it throws (transpiled-position.ts). */
export interface ModuleSource {
  readonly text: string;
  readonly map: string;
}

export type ModuleGraph =
  | { readonly ok: true; readonly entry: string; readonly modules: readonly SandboxModule[]; readonly sources: ReadonlyMap<string, ModuleSource> }
  | { readonly ok: false; readonly message: string; readonly hint: string; readonly at?: { readonly start: number; readonly end: number } };

const IMPORT_HINT =
  'a definition imports antrea-clusterset and files of its own folder (.ts, .js, .json) by literal relative paths; built-in and installed modules are not available to it';

/**
 * The modules a TypeScript definition consists of, read here, on the compiler's side, under the
 * folder's rules (definition-folder.ts), each syntax-checked and transpiled to CommonJS: the
 * sandbox is handed their text and reads no file itself. JSX is refused (`.tsx`, `.jsx`, and JSX
 * parsed in a `.js` module, which TypeScript keeps as it is and an engine may read otherwise, #48). Each module's requires are found in its transpiled code (type-only
 * imports are gone by then) and must be the package or a file of the folder; anything else
 * (`node:fs`, an installed package, a link out of the folder) refuses the definition, at the
 * import when it is the definition's own. A require by a computed name fails when it runs.
 */
export function collectModules(ts: Ts, file: string, text: string, real: string, folder: DefinitionFolder, limits: GraphLimits): ModuleGraph {
  const idOf = (path: string) => relative(folder.real, path).split(sep).join('/');
  const entry = idOf(real);
  const modules: SandboxModule[] = [];
  const sources = new Map<string, ModuleSource>();
  const seen = new Set([entry]);
  // each module with the definition's import that led to it: where its refusal is reported
  const queue: { id: string; path: string; text: string; at?: { start: number; end: number } }[] = [{ id: entry, path: real, text }];
  let bytes = Buffer.byteLength(text);
  for (let next = queue.shift(); next; next = queue.shift()) {
    const { id, path } = next;
    const isEntry = id === entry;
    if (extname(path) === '.json') {
      modules.push({ id, kind: 'json', code: next.text, requires: {} });
      continue;
    }
    const transpiled = transpile(ts, path, next.text);
    if (!transpiled.ok) return { ok: false, message: `${id}:${transpiled.message}`, hint: transpiled.hint, ...(next.at ? { at: next.at } : {}) };
    const { code } = transpiled;
    sources.set(id, { text: next.text, map: transpiled.map });
    const requires: Record<string, string> = {};
    for (const { fileName: specifier } of ts.preProcessFile(code, true, true).importedFiles) {
      const at = isEntry ? importAt(ts, next.text, specifier) : next.at;
      const refuse = (message: string, hint = IMPORT_HINT): ModuleGraph => ({
        ok: false,
        message: isEntry ? message : `${id}: ${message}`,
        hint,
        ...(at ? { at } : {}),
      });
      if (specifier === PACKAGE) {
        requires[specifier] = HELPERS;
        continue;
      }
      if (!/^\.\.?(\/|$)/.test(specifier)) return refuse(`it imports "${specifier}", which a definition cannot import`);
      const found = resolveModule(join(dirname(path), specifier));
      if (found === undefined) return refuse(`it imports "${specifier}", which is not a file of its folder`);
      if (/\.[jt]sx$/.test(found)) return refuse(`it imports "${specifier}", a JSX module`, JSX_HINT);
      const read = readInFolder(found, folder, limits.maxSourceBytes - bytes);
      if (!read.ok) return refuse(`it imports "${specifier}", which cannot be read: ${reasonText(read)}`, read.hint);
      const target = idOf(read.real);
      requires[specifier] = target;
      if (seen.has(target)) continue;
      seen.add(target);
      bytes += Buffer.byteLength(read.text);
      if (seen.size > limits.maxModules) return refuse(`it imports more than ${limits.maxModules} modules`, 'a definition is data: keep it to a few files');
      queue.push({ id: target, path: read.real, text: read.text, ...(at ? { at } : {}) });
    }
    modules.push({ id, kind: 'js', code, requires });
  }
  return { ok: true, entry, modules, sources };
}

const JSX_HINT = 'a definition is data: its modules are TypeScript or JavaScript without JSX';

const reasonText = (r: Refusal): string => (r.reason instanceof Error ? r.reason.message : String(r.reason));

/**
 * CommonJS, as the sandbox runs it; `.mts`/`.mjs` as `.ts`/`.js`, since TypeScript keeps those as
 * ES modules. A module that does not parse is refused here (`:line:column: message`), whether the
 * definition or a module it imports, and so is JSX: TypeScript parses it in a `.js` module and
 * keeps it as it is, where an engine would read other code than TypeScript checked.
 */
function transpile(ts: Ts, path: string, text: string): { ok: true; code: string; map: string } | { ok: false; message: string; hint: string } {
  const fileName = path.replace(/\.m([tj]s)$/, '.$1').replace(/\.c([tj]s)$/, '.$1');
  const output = ts.transpileModule(text, {
    fileName,
    reportDiagnostics: true,
    compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022, esModuleInterop: true, sourceMap: true },
  });
  const lines = new LineIndex(text);
  const problem = (output.diagnostics ?? []).find((d) => d.category === ts.DiagnosticCategory.Error && d.start !== undefined);
  if (problem) {
    const { line, column } = lines.span(problem.start!, problem.start!);
    return {
      ok: false,
      message: `${line}:${column}: ${ts.flattenDiagnosticMessageText(problem.messageText, ' ').replace(/\.$/, '')}`,
      hint: `TS${problem.code}; \`npx tsc --noEmit\` reports the same`,
    };
  }
  if (fileName.endsWith('.js')) {
    const jsx = findJsx(ts, ts.createSourceFile(fileName, text, ts.ScriptTarget.ES2022, true, ts.ScriptKind.JS));
    if (jsx) {
      const { line, column } = lines.span(jsx.getStart(), jsx.getStart());
      return { ok: false, message: `${line}:${column}: JSX, which a definition's modules cannot hold`, hint: JSX_HINT };
    }
  }
  return { ok: true, code: output.outputText, map: output.sourceMapText ?? '' };
}

function findJsx(ts: Ts, node: import('typescript').Node): import('typescript').Node | undefined {
  if (ts.isJsxElement(node) || ts.isJsxSelfClosingElement(node) || ts.isJsxFragment(node)) return node;
  return ts.forEachChild(node, (child) => findJsx(ts, child));
}

const EXTENSIONS = ['.js', '.json', '.ts', '.mts', '.cts', '.cjs', '.mjs'];

/**
 * The file a relative specifier names, as Node's require found it (the exact path, then with each
 * extension, then the folder's index), and as TypeScript does for `./x.js` written for `./x.ts`.
 * Only whether a name exists is looked at here; whatever is found is then read under the folder's rules.
 */
function resolveModule(base: string): string | undefined {
  const twin = /\.([mc]?)js$/.test(base) ? [base.replace(/\.([mc]?)js$/, '.$1ts')] : [];
  const candidates = [base, ...twin, ...EXTENSIONS.map((e) => base + e), ...EXTENSIONS.map((e) => join(base, `index${e}`))];
  // a folder named without an index is passed over; any other entry (a link out, a FIFO) is found, then refused
  return candidates.find((c) => exists(c) && !(c === base && isDirectory(c)));
}

const exists = (path: string): boolean => {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
};
const isDirectory = (path: string): boolean => {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
};

/** Where the definition names `specifier` in an import, export or require, for the diagnostic's position. */
function importAt(ts: Ts, text: string, specifier: string): { start: number; end: number } | undefined {
  const found = ts.preProcessFile(text, true, true).importedFiles.find((f) => f.fileName === specifier);
  // the string literal: pos is its opening quote and end is one short of its closing one
  return found ? { start: found.pos, end: found.end + 2 } : undefined;
}
