import { hasErrors, type Diagnostic } from '../diagnostics/diagnostic';
import type { OutputFile } from '../layout/layout';
import type { SourceFile } from '../load/source-file';
import { memorySink } from './memory-sink';
import { runPipeline } from './pipeline';
import type { ClusterSetOutput } from '../synth/synth-clusterset';

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

export { validateDefinitions, type ValidatedRevision } from './pipeline';

/** The pipeline (pipeline/pipeline.ts) with its result in memory: every file synth would write. */
export async function compile(options: CompileOptions): Promise<CompileResult> {
  const { diagnostics, revisions, result } = await runPipeline([{ files: options.files }], options.validateOnly ? undefined : memorySink(options.outDir));
  const sources = revisions[0]?.sources ?? [];
  const built = result?.[0];
  if (!built) return { diagnostics, sources, outputs: [], files: [] };
  return { diagnostics, sources, outputs: built.outputs, files: hasErrors(diagnostics) ? [] : built.files };
}
