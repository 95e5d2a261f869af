import { readdirSync, readFileSync, statSync } from 'node:fs';
import { extname, join, relative } from 'node:path';
import type { Diagnostic } from '../diagnostics/diagnostic';
import { loadTypeScript } from './load-typescript';
import { loadYaml } from './load-yaml';
import type { SourceFile } from './source-file';

export const DEFINITION_EXTENSIONS = ['.yaml', '.yml', '.ts'];

/** Expands paths (files or directories) into definition files, sorted for a stable order. */
export function findDefinitionFiles(paths: readonly string[]): string[] {
  const files = new Set<string>();
  for (const p of paths) {
    if (statSync(p).isDirectory()) {
      for (const name of readdirSync(p)) {
        if (DEFINITION_EXTENSIONS.includes(extname(name)) && !name.endsWith('.d.ts')) files.add(join(p, name));
      }
    } else {
      files.add(p);
    }
  }
  return [...files].map((f) => relative(process.cwd(), f) || f).sort();
}

/** Reads and parses each file; problems become diagnostics, never exceptions. */
export async function loadClusterSets(files: readonly string[], diagnostics: Diagnostic[]): Promise<SourceFile[]> {
  const sources: SourceFile[] = [];
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    const source = extname(file) === '.ts' ? await loadTypeScript(file, text, diagnostics) : loadYaml(file, text, diagnostics);
    if (source) sources.push(source);
  }
  return sources;
}
