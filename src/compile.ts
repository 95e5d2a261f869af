import { hasErrors, type Diagnostic } from './diagnostics/diagnostic';
import { EmitCache, layoutClusterSet, manifestFile, type OutputFile } from './emit/layout';
import { loadClusterSets } from './load/load-clustersets';
import type { SourceFile } from './load/source-file';
import { parseClusterSet } from './model/parse-clusterset';
import { synthClusterSet, type ClusterSetOutput } from './synth/synth-clusterset';
import { runRawRules, runRules } from './validate/run-rules';

export interface CompileOptions {
  /** definition files (see findDefinitionFiles) */
  readonly files: readonly string[];
  /** stop after validation */
  readonly validateOnly?: boolean;
}

export interface CompileResult {
  readonly diagnostics: Diagnostic[];
  readonly sources: readonly SourceFile[];
  readonly outputs: readonly ClusterSetOutput[];
  /** empty when any error was found: nothing is written from a broken input */
  readonly files: readonly OutputFile[];
}

/** The pipeline, top to bottom. Only the CLI writes to disk or prints. */
export async function compile(options: CompileOptions): Promise<CompileResult> {
  const diagnostics: Diagnostic[] = [];

  // load: parse each file, keeping a way back from data paths to line and column
  const sources = await loadClusterSets(options.files, diagnostics);

  // model: shape, enums and defaults (zod); rules over raw data run even when that fails
  const parsed = sources.flatMap((source) => {
    runRawRules(source, diagnostics);
    return parseClusterSet(source, diagnostics) ?? [];
  });

  // validate: cross-field and cross-cluster rules over the effective settings
  for (const p of parsed) runRules(p, diagnostics);
  duplicateClusterSetNames(parsed, diagnostics);
  if (hasErrors(diagnostics) || options.validateOnly) return { diagnostics, sources, outputs: [], files: [] };

  // synth: one cdk8s App per cluster bundle
  const outputs = parsed.map(synthClusterSet);

  // emit: deterministic files, every object checked against its schema first
  const cache = new EmitCache();
  const files = outputs.flatMap((o) => layoutClusterSet(o, diagnostics, cache));
  files.push(manifestFile(outputs));
  if (hasErrors(diagnostics)) return { diagnostics, sources, outputs, files: [] };
  return { diagnostics, sources, outputs, files };
}

/** Two definitions with one ClusterSet name would write the same folder. */
function duplicateClusterSetNames(parsed: readonly { source: SourceFile; definition: { metadata: { name: string } } }[], diagnostics: Diagnostic[]): void {
  const first = new Map<string, SourceFile>();
  for (const p of parsed) {
    const name = p.definition.metadata.name;
    const earlier = first.get(name);
    if (!earlier) {
      first.set(name, p.source);
      continue;
    }
    diagnostics.push({
      code: 'output-collision',
      severity: 'error',
      message: `ClusterSet "${name}" is also defined in ${earlier.file}`,
      file: p.source.file,
      path: ['metadata', 'name'],
      ...p.source.locate(['metadata', 'name']),
      related: [{ message: 'first defined here', file: earlier.file, path: ['metadata', 'name'], ...earlier.locate(['metadata', 'name']) }],
      hint: 'each ClusterSet is defined in one file; its name is its output folder',
    });
  }
}
