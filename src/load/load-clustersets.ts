import { readdirSync, statSync } from 'node:fs';
import { extname, join, relative } from 'node:path';
import type { Diagnostic } from '../diagnostics/diagnostic';
import { fileSystemDiagnostic } from '../diagnostics/file-system';
import { readSourceFile, type DefinitionFolder, type Refusal } from './definition-folder';
import { closeSandbox, type TypeScriptBudget } from './evaluate-typescript';
import { loadTypeScript } from './load-typescript';
import { loadYaml } from './load-yaml';
import type { SourceFile } from './source-file';
import { loadTypeScriptPackage } from './typescript-package';
import { checkTypeScriptSyntax } from './typescript-syntax';

/** YAML, and JSON, which is YAML too: the same loader, with positions */
export const YAML_EXTENSIONS = ['.yaml', '.yml', '.json'];
export const TYPESCRIPT_EXTENSIONS = ['.ts', '.mts', '.cts'];
export const DEFINITION_EXTENSIONS = [...YAML_EXTENSIONS, ...TYPESCRIPT_EXTENSIONS];

const isDefinition = (name: string) => DEFINITION_EXTENSIONS.includes(extname(name)) && !/\.d\.[mc]?ts$/.test(name);
const NO_DEFINITIONS = `definitions are ${DEFINITION_EXTENSIONS.map((e) => `*${e}`).join(', ')} files`;

/**
 * Expands paths (files or directories) into definition files, sorted for a stable order. A path
 * that cannot be read, or a directory without definitions, is a `file-system` diagnostic.
 */
export function findDefinitionFiles(paths: readonly string[], diagnostics: Diagnostic[]): string[] {
  const files = new Set<string>();
  for (const p of paths) {
    try {
      if (!statSync(p).isDirectory()) {
        files.add(p);
        continue;
      }
      const found = readdirSync(p).filter(isDefinition);
      if (found.length === 0) diagnostics.push(fileSystemDiagnostic(p, 'find definitions in', 'the directory holds none', NO_DEFINITIONS));
      for (const name of found) files.add(join(p, name));
    } catch (err) {
      diagnostics.push(fileSystemDiagnostic(p, 'read', err, `check the path; ${NO_DEFINITIONS}`));
    }
  }
  return [...files].map((f) => relative(process.cwd(), f) || f).sort();
}

/** Far above any definition (YAML refuses more than 8 MiB with its own diagnostic): only memory is guarded here. */
export const MAX_DEFINITION_BYTES = 64 * 1024 * 1024;

export interface LoadOptions {
  /** false refuses TypeScript definitions (`--no-typescript`): only YAML is read, nothing is run */
  readonly typescript?: boolean;
  /**
   * texts of YAML files already read from a regular file of git's object store (plan's base
   * revision, read-revision.ts): taken as read, without the file on disk
   */
  readonly known?: ReadonlyMap<string, string>;
}

/** Reads and parses each file; problems become diagnostics, never exceptions. */
export async function loadClusterSets(
  files: readonly string[],
  diagnostics: Diagnostic[],
  options: LoadOptions = {},
  /** filled with the text of every file read, also those that do not load: code frames for their diagnostics */
  texts?: Map<string, string>,
  /** true: the file is read (and its text kept) but not parsed; the pull-request check's index vouches for it */
  skip?: (file: string, text: string) => boolean,
): Promise<SourceFile[]> {
  const sources: SourceFile[] = [];
  // one time budget and one sandbox process for all TypeScript definitions of the call (#48 item 1)
  const budget: TypeScriptBudget = {};
  // each file is checked on its own (its real path inside its folder); its folder once per call
  const folders = new Map<string, DefinitionFolder | Refusal>();
  try {
    for (const file of files) {
      const typescript = TYPESCRIPT_EXTENSIONS.includes(extname(file));
      const known = typescript ? undefined : options.known?.get(file);
      const read = known === undefined ? readSourceFile(file, MAX_DEFINITION_BYTES, folders) : undefined;
      if (read && !read.ok) {
        // never read, so never shown: a refused file has no code frame
        diagnostics.push(fileSystemDiagnostic(file, 'read', read.reason, read.hint));
        continue;
      }
      const text = read?.text ?? known!;
      texts?.set(file, text);
      if (skip?.(file, text)) continue;
      let source: SourceFile | undefined;
      if (!typescript || !read) source = loadYaml(file, text, diagnostics);
      else if (options.typescript === false) {
        diagnostics.push({
          code: 'typescript-evaluation',
          severity: 'error',
          message: 'TypeScript definitions are turned off (--no-typescript)',
          file,
          path: [],
          line: 1,
          column: 1,
          hint: 'write the definition in YAML, or run without --no-typescript where its code is trusted',
        });
      } else {
        const compiler = loadTypeScriptPackage(file, diagnostics);
        if (compiler && checkTypeScriptSyntax(compiler.ts, file, text, diagnostics)) source = await loadTypeScript(compiler, file, read, diagnostics, budget);
      }
      if (source) sources.push(source);
    }
  } finally {
    closeSandbox(budget);
  }
  return sources;
}
