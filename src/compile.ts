import { hasErrors, type Diagnostic } from './diagnostics/diagnostic';
import { EmitCache, layoutClusterSet, manifestEntry, manifestFile, SHARED_ROOT, type ManifestEntry, type OutputFile } from './emit/layout';
import { loadClusterSets, type LoadOptions } from './load/load-clustersets';
import type { SourceFile } from './load/source-file';
import { parseClusterSet, type ParsedClusterSet } from './model/parse-clusterset';
import { synthClusterSet, type ClusterSetOutput } from './synth/synth-clusterset';
import { runRawRules, runRules } from './validate/run-rules';
import { scanDefinitionText, scanOutputFiles } from './validate/scan-secrets';

export interface CompileOptions {
  /** definition files (see findDefinitionFiles) */
  readonly files: readonly string[];
  /** stop after validation */
  readonly validateOnly?: boolean;
  /** the output directory: manifest.json records sources relative to its parent (default `dist`) */
  readonly outDir?: string;
}

export interface CheckResult {
  readonly diagnostics: Diagnostic[];
  readonly sources: readonly SourceFile[];
  /** the definitions that passed the schema (synthesize them only when `diagnostics` has no error) */
  readonly parsed: readonly ParsedClusterSet[];
}

export interface CompileResult {
  readonly diagnostics: Diagnostic[];
  readonly sources: readonly SourceFile[];
  readonly outputs: readonly ClusterSetOutput[];
  /** empty when any error was found: nothing is written from a broken input */
  readonly files: readonly OutputFile[];
}

/** load, model and validate: everything before synth. */
export async function checkDefinitions(files: readonly string[], options: LoadOptions = {}): Promise<CheckResult> {
  const diagnostics: Diagnostic[] = [];

  // load: parse each file (TypeScript in a sandbox), keeping a way back from data paths to line and column
  const sources = await loadClusterSets(files, diagnostics, options);

  // model: shape, enums and defaults (zod); rules over raw data run even when that fails
  const parsed = sources.flatMap((source) => {
    runRawRules(source, diagnostics);
    return parseClusterSet(source, diagnostics) ?? [];
  });
  // secrets anywhere in a definition's text (values, keys, comments), by secretlint's detectors;
  // a line the inline-secret rule already reported is not reported twice
  for (const source of sources) {
    const found: Diagnostic[] = [];
    await scanDefinitionText(source.file, source.text, found);
    const reported = new Set(diagnostics.filter((d) => d.code === 'inline-secret' && d.file === source.file).map((d) => d.line));
    diagnostics.push(...found.filter((d) => !reported.has(d.line)));
  }

  // validate: cross-field and cross-cluster rules over the effective settings
  for (const p of parsed) runRules(p, diagnostics);
  duplicateClusterSetNames(parsed, diagnostics);
  return { diagnostics, sources, parsed };
}

/**
 * The pipeline, top to bottom, in memory. Only the CLI writes to disk or prints; it streams
 * bundles to disk one at a time instead (emit/output-directory.ts) with the same functions.
 */
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
    const laid = layoutClusterSet(o, diagnostics, cache);
    for (const f of laid) byPath.set(f.path, f);
    entries[o.name] = manifestEntry(o, root, laid.filter((f) => f.path.startsWith(`${SHARED_ROOT}/`) && f.path.endsWith('/kustomization.yaml')).map((f) => f.path.slice(0, -'/kustomization.yaml'.length)));
  }
  // shared units in path order, like every other file, wherever the ClusterSet that made them came
  const files = [...byPath.values()].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  files.push(manifestFile(entries));
  for (const o of outputs) await scanOutputFiles(o.file, files.filter((f) => f.path.startsWith(`${o.name}/`)), diagnostics);
  await scanOutputFiles(outputs[0]?.file ?? '', files.filter((f) => f.path.startsWith(`${SHARED_ROOT}/`)), diagnostics);
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
