import { lstatSync, statSync } from 'node:fs';
import { dirname, extname, join, relative, sep } from 'node:path';
import { readInFolder, type DefinitionFolder, type Refusal } from './definition-folder';
import type { Ts } from './typescript-compiler';

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

export type ModuleGraph =
  | { readonly ok: true; readonly entry: string; readonly modules: readonly SandboxModule[] }
  | { readonly ok: false; readonly message: string; readonly hint: string; readonly at?: { readonly start: number; readonly end: number } };

const IMPORT_HINT =
  'a definition imports antrea-clusterset and files of its own folder (.ts, .js, .json) by literal relative paths; built-in and installed modules are not available to it';

/**
 * The modules a TypeScript definition consists of, read here, on the compiler's side, under the
 * folder's rules (definition-folder.ts), and transpiled to CommonJS: the sandbox is handed their
 * text and reads no file itself. Each module's requires are found in its transpiled code (type-only
 * imports are gone by then) and must be the package or a file of the folder; anything else
 * (`node:fs`, an installed package, a link out of the folder) refuses the definition, at the
 * import when it is the definition's own. A require by a computed name fails when it runs.
 */
export function collectModules(ts: Ts, file: string, text: string, real: string, folder: DefinitionFolder, limits: GraphLimits): ModuleGraph {
  const idOf = (path: string) => relative(folder.real, path).split(sep).join('/');
  const entry = idOf(real);
  const modules: SandboxModule[] = [];
  const seen = new Set([entry]);
  const queue: { id: string; path: string; text: string }[] = [{ id: entry, path: real, text }];
  let bytes = Buffer.byteLength(text);
  for (let next = queue.shift(); next; next = queue.shift()) {
    const { id, path } = next;
    const isEntry = id === entry;
    if (extname(path) === '.json') {
      modules.push({ id, kind: 'json', code: next.text, requires: {} });
      continue;
    }
    const code = transpile(ts, path, next.text);
    const requires: Record<string, string> = {};
    for (const { fileName: specifier } of ts.preProcessFile(code, true, true).importedFiles) {
      const refuse = (message: string, hint = IMPORT_HINT): ModuleGraph => ({
        ok: false,
        message: isEntry ? message : `${id}: ${message}`,
        hint,
        ...(isEntry ? { at: importAt(ts, next.text, specifier) } : {}),
      });
      if (specifier === PACKAGE) {
        requires[specifier] = HELPERS;
        continue;
      }
      if (!/^\.\.?(\/|$)/.test(specifier)) return refuse(`it imports "${specifier}", which a definition cannot import`);
      const found = resolveModule(join(dirname(path), specifier));
      if (found === undefined) return refuse(`it imports "${specifier}", which is not a file of its folder`);
      const read = readInFolder(found, folder, limits.maxSourceBytes - bytes);
      if (!read.ok) return refuse(`it imports "${specifier}", which cannot be read: ${reasonText(read)}`, read.hint);
      const target = idOf(read.real);
      requires[specifier] = target;
      if (seen.has(target)) continue;
      seen.add(target);
      bytes += Buffer.byteLength(read.text);
      if (seen.size > limits.maxModules) return refuse(`it imports more than ${limits.maxModules} modules`, 'a definition is data: keep it to a few files');
      queue.push({ id: target, path: read.real, text: read.text });
    }
    modules.push({ id, kind: 'js', code, requires });
  }
  return { ok: true, entry, modules };
}

const reasonText = (r: Refusal): string => (r.reason instanceof Error ? r.reason.message : String(r.reason));

/** CommonJS, as the sandbox runs it; `.mts`/`.mjs` as `.ts`/`.js`, since TypeScript keeps those as ES modules. */
function transpile(ts: Ts, path: string, text: string): string {
  return ts.transpileModule(text, {
    fileName: path.replace(/\.m([tj]s)$/, '.$1').replace(/\.c([tj]s)$/, '.$1'),
    compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022, esModuleInterop: true },
  }).outputText;
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
