import type { Diagnostic } from '../../src/diagnostics/diagnostic';
import type { OutputFile } from '../../src/layout/layout';
import type { SourceFile } from '../../src/load/source-file';
import { memorySink } from '../../src/pipeline/memory-sink';
import { runPipeline } from '../../src/pipeline/pipeline';
import type { ClusterSetOutput } from '../../src/synth/synth-clusterset';
import type { Rule } from '../../src/validate/rule';

/** A definition given as data, as the construct library gives one (no text, no positions). */
export const dataSource = (data: unknown, file = 'definition.yaml'): SourceFile => ({
  file,
  text: '',
  data,
  locate: () => ({ line: 1, column: 1, endLine: 1, endColumn: 1 }),
});

export interface CompiledSource {
  /** load and validate diagnostics: any error and nothing was built */
  readonly validate: readonly Diagnostic[];
  /** the layout stage's (schemas, collisions, sizes, the secret scan of every file) */
  readonly layout: readonly Diagnostic[];
  /** the ClusterSet with its bundles and engine objects, when validate passed */
  readonly output?: ClusterSetOutput;
  /** every file synth would write, manifest.json last; empty with any error */
  readonly files: readonly OutputFile[];
}

/**
 * One loaded definition through the pipeline into memory, as compile() runs files (the memory
 * sink of pipeline/memory-sink.ts): tests build output the one way synth does. `rules` runs
 * fewer rules than validate does, to show what one of them prevents.
 */
export async function compileSource(source: SourceFile, rules?: readonly Rule[]): Promise<CompiledSource> {
  const { diagnostics, revisions, result } = await runPipeline([{ sources: [source], ...(rules && { rules }) }], memorySink());
  const validate = revisions[0]!.diagnostics;
  // the run's diagnostics are the revision's, then the layout stage's
  return { validate, layout: diagnostics.slice(validate.length), output: result?.[0]?.outputs[0], files: result?.[0]?.files ?? [] };
}
