import { Chart } from 'cdk8s';
import { Construct } from 'constructs';
import { dataPathText, hasErrors, sortDiagnostics, type Diagnostic } from '../diagnostics/diagnostic';
import { fileSystemDiagnostic } from '../diagnostics/file-system';
import { maskSecrets, renderText } from '../diagnostics/render';
import { sortObjects } from '../layout/layout';
import { readSourceFile } from '../load/definition-folder';
import { MAX_DEFINITION_BYTES } from '../load/load-clustersets';
import { loadYaml } from '../load/load-yaml';
import { LineIndex, type SourceFile } from '../load/source-file';
import type { ClusterSetInput } from '../model/clusterset';
import { addObjects } from '../synth/parts/apply-objects';
import type { Bundle, ClusterSetOutput } from '../synth/synth-clusterset';
import { memorySink } from '../pipeline/memory-sink';
import { runPipelineSync } from '../pipeline/run-sync';

export interface AntreaClusterSetProps {
  /**
   * The definition, as `defineClusterSet({...})` returns it (or parsed YAML); or `{ file }`, a
   * YAML definition read from disk, so that diagnostics carry its line and column.
   */
  readonly definition: ClusterSetInput | { readonly file: string };
}

/**
 * The diagnostics that stopped a ClusterSet, as one error whose message lists them all as the CLI
 * prints them: `file:line:column: error code: message`, the code frame and the hint. A definition
 * given as data has no lines: its diagnostics are placed by data path. `id` and `diagnostics` are
 * not enumerable, so that Node, printing an uncaught error, shows the message and not a dump.
 */
export class ClusterSetError extends Error {
  declare readonly id: string;
  declare readonly diagnostics: readonly Diagnostic[];

  constructor(id: string, diagnostics: readonly Diagnostic[]) {
    const errors = diagnostics.filter((d) => d.severity === 'error');
    super(
      `ClusterSet "${id}" has ${errors.length} error${errors.length === 1 ? '' : 's'}:\n${sortDiagnostics(errors)
        .map((d) => renderOne(d, diagnostics))
        .join('')
        .trimEnd()}`,
    );
    Object.defineProperty(this, 'id', { value: id, enumerable: false });
    Object.defineProperty(this, 'diagnostics', { value: diagnostics, enumerable: false });
    this.name = 'ClusterSetError';
  }
}

/** One diagnostic as the CLI's text: with a code frame when it is in a file that can be read, its secrets masked. */
function renderOne(d: Diagnostic, all: readonly Diagnostic[]): string {
  if (d.file.startsWith('<')) {
    const path = dataPathText(d.path) || 'the definition';
    return `${path}: ${d.severity} ${d.code}: ${d.message}\n${d.hint ? `  hint: ${d.hint}\n` : ''}`;
  }
  // read as a definition is, or not at all: no code frame from a file that is not one (#37 item 1)
  const read = readSourceFile(d.file, MAX_DEFINITION_BYTES);
  const text = read.ok ? read.text : undefined;
  return renderText([d], text === undefined ? new Map() : maskSecrets(new Map([[d.file, text]]), all), { summary: false });
}

/**
 * A ClusterSet in a user's own cdk8s app: the compiler's pipeline (schema, rules, synth, the
 * output self-checks) with one chart per cluster bundle (`charts`, by cluster ID) and one per
 * delivery engine (`argocd`, `flux`), holding the objects `clusterset synth` writes.
 * Any error diagnostic is thrown as one ClusterSetError; warnings are kept in `diagnostics`. The
 * rules across definitions (`cluster-in-two-definitions`, a ClusterSet name twice) run over every
 * AntreaClusterSet of the app when `app.synth()` validates it.
 */
export class AntreaClusterSet extends Construct {
  /** one chart per cluster, by cluster ID */
  readonly charts: Readonly<Record<string, Chart>>;
  /** one chart per delivery engine that the definition configures */
  readonly engineCharts: Readonly<Record<string, Chart>>;
  /** the compiled output: bundles, engine objects and the operator notes */
  readonly output: ClusterSetOutput;
  /** warnings (errors are thrown) */
  readonly diagnostics: readonly Diagnostic[];

  constructor(scope: Construct, id: string, props: AntreaClusterSetProps) {
    super(scope, id);
    try {
      const diagnostics: Diagnostic[] = [];
      const source = sourceOf(id, props.definition, diagnostics);
      if (!source) throw new ClusterSetError(id, diagnostics);
      // the compiler's pipeline, synchronously (cdk8s constructs are): the rules, what remains checkable
      // after a schema error, the definition's secret scan, the fleet rules, synth, and the output
      // self-checks of every file `clusterset synth` would write (schemas, collisions, secret scan)
      const run = runPipelineSync([{ sources: [source] }], memorySink());
      diagnostics.push(...run.diagnostics);
      const output = run.result?.[0]?.outputs[0];
      if (!output || hasErrors(diagnostics)) throw new ClusterSetError(id, diagnostics);

      this.output = output;
      this.diagnostics = diagnostics;
      this.source = source;
      // the fleet rules across every ClusterSet of the app (a cluster in two of them, one name twice),
      // at app.synth(), once all are constructed; the first ClusterSet of the app reports for all
      this.node.addValidation({ validate: () => this.validateFleet() });
      this.charts = Object.fromEntries(output.bundles.map((b) => [b.clusterID, this.chart(b.clusterID, b.objects)]));
      this.engineCharts = Object.fromEntries(Object.entries(output.engines).map(([engine, objects]) => [engine, this.chart(engine, objects)]));
    } catch (err) {
      // an app that catches the error goes on without this ClusterSet: left in the tree half-built,
      // it would stand first in validateFleet (which then checks nothing) or break app.synth()
      scope.node.tryRemoveChild(id);
      throw err;
    }
  }

  private readonly source: SourceFile;

  private validateFleet(): string[] {
    const all = this.node.root.node.findAll().filter((c): c is AntreaClusterSet => c instanceof AntreaClusterSet);
    if (all[0] !== this || all.length < 2) return [];
    const { diagnostics } = runPipelineSync([{ sources: all.map((c) => c.source) }]);
    const errors = sortDiagnostics(diagnostics.filter((d) => d.severity === 'error'));
    return errors.length === 0
      ? []
      : [
          `the ClusterSets of this app conflict:\n${errors
            .map((d) => renderOne(d, diagnostics))
            .join('')
            .trimEnd()}`,
        ];
  }

  private chart(id: string, objects: Bundle['objects']): Chart {
    // explicit names only, as in the bundles: Antrea's objects have fixed names
    const chart = new Chart(this, id, { disableResourceNameHashes: true });
    addObjects(chart, sortObjects(objects));
    return chart;
  }
}

function sourceOf(id: string, definition: AntreaClusterSetProps['definition'], diagnostics: Diagnostic[]): SourceFile | undefined {
  if (isFileReference(definition)) {
    const read = readSourceFile(definition.file, MAX_DEFINITION_BYTES);
    if (!read.ok) {
      diagnostics.push(fileSystemDiagnostic(definition.file, 'read', read.reason, read.hint));
      return undefined;
    }
    return loadYaml(definition.file, read.text, diagnostics);
  }
  // an object has no text: positions are the top of a virtual file, the data path says where
  const lines = new LineIndex('');
  return { file: `<${id}>`, text: '', data: definition, locate: () => lines.span(0, 0) };
}

const isFileReference = (d: unknown): d is { file: string } =>
  typeof d === 'object' && d !== null && Object.keys(d).length === 1 && typeof (d as { file?: unknown }).file === 'string';
