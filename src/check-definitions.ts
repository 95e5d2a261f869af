import type { Diagnostic } from './diagnostics/diagnostic';
import { loadClusterSets, type LoadOptions } from './load/load-clustersets';
import type { SourceFile } from './load/source-file';
import { parseClusterSet, type ParsedClusterSet } from './model/parse-clusterset';
import { runFleetRules, runRawRules, runRules } from './validate/run-rules';
import { checkWhatRemains } from './validate/salvage';
import { scanDefinitionText } from './secrets/scan-secrets';

export interface CheckResult {
  readonly diagnostics: Diagnostic[];
  readonly sources: readonly SourceFile[];
  /** the definitions that passed the schema (synthesize them only when `diagnostics` has no error) */
  readonly parsed: readonly ParsedClusterSet[];
  /** file → text of every definition read, for code frames (also files that did not load) */
  readonly texts: ReadonlyMap<string, string>;
}

/** load, model and validate: everything before synth. */
export async function checkDefinitions(files: readonly string[], options: LoadOptions = {}): Promise<CheckResult> {
  const diagnostics: Diagnostic[] = [];

  // load: parse each file (TypeScript in a sandbox), keeping a way back from data paths to line and column
  const texts = new Map<string, string>();
  const sources = await loadClusterSets(files, diagnostics, options, texts);

  // model: shape, enums and defaults (zod); rules over raw data run even when that fails
  const parsed = sources.flatMap((source) => {
    runRawRules(source, diagnostics);
    const p = parseClusterSet(source, diagnostics);
    // a schema error does not hide the rest: the rules run over what can be checked
    if (!p) checkWhatRemains(source, diagnostics);
    return p ?? [];
  });
  // secrets anywhere in a definition's text (values, keys, comments), by secretlint's detectors
  for (const source of sources) await scanDefinitionText(source.file, source.text, diagnostics);

  // validate: cross-field and cross-cluster rules over the effective settings
  for (const p of parsed) runRules(p, diagnostics);
  duplicateClusterSetNames(parsed, diagnostics);
  runFleetRules(parsed, diagnostics);
  return { diagnostics, sources, parsed, texts };
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
