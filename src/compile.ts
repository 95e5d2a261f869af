import { hasErrors, type Diagnostic } from './diagnostics/diagnostic';
import { checkedFiles } from './emit/checked-files';
import { EmitCache, type OutputFile } from './emit/layout';
import { manifestEntry, manifestFile, type ManifestEntry } from './emit/manifest';
import type { SourceFile } from './load/source-file';
import { checkDefinitions } from './check-definitions';
import { synthClusterSet, type ClusterSetOutput } from './synth/synth-clusterset';

export interface CompileOptions {
  /** definition files (see findDefinitionFiles) */
  readonly files: readonly string[];
  /** stop after validation */
  readonly validateOnly?: boolean;
  /** the output directory: manifest.json records sources relative to its parent (default `dist`) */
  readonly outDir?: string;
}

export interface CompileResult {
  readonly diagnostics: Diagnostic[];
  readonly sources: readonly SourceFile[];
  readonly outputs: readonly ClusterSetOutput[];
  /** empty when any error was found: nothing is written from a broken input */
  readonly files: readonly OutputFile[];
}

/**
 * The pipeline, top to bottom, in memory. Only the CLI writes to disk or prints; it streams
 * bundles to disk one at a time instead (emit/output-directory.ts) with the same functions.
 */
export { checkDefinitions, type CheckResult } from './check-definitions';

export async function compile(options: CompileOptions): Promise<CompileResult> {
  const { diagnostics, sources, parsed } = await checkDefinitions(options.files);
  if (hasErrors(diagnostics) || options.validateOnly) return { diagnostics, sources, outputs: [], files: [] };

  // synth: one cdk8s App per cluster bundle
  const outputs = parsed.map(synthClusterSet);

  // emit: deterministic files, every object checked against its schema first
  const cache = new EmitCache();
  const byPath = new Map<string, OutputFile>();
  const root = `${options.outDir ?? 'dist'}/..`;
  const entries: Record<string, ManifestEntry> = {};
  for (const o of outputs) {
    // check: schemas, collisions and sizes, then the secret scan of every file
    const laid = await checkedFiles(o, diagnostics, cache);
    for (const f of laid) byPath.set(f.path, f);
    entries[o.name] = manifestEntry(o, root, laid);
  }
  // shared units in path order, like every other file, wherever the ClusterSet that made them came
  const files = [...byPath.values()].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  files.push(manifestFile(entries));
  if (hasErrors(diagnostics)) return { diagnostics, sources, outputs, files: [] };
  return { diagnostics, sources, outputs, files };
}
