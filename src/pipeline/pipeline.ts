import { hasErrors, type Diagnostic } from '../diagnostics/diagnostic';
import type { LayoutCache, ClusterEngineFiles, OutputFile, SharedUnit } from '../layout/layout';
import type { KubeObject } from '../kube/kube-object';
import { loadClusterSets, type LoadOptions } from '../load/load-clustersets';
import type { SourceFile } from '../load/source-file';
import { parseClusterSet, type ParsedClusterSet } from '../model/parse-clusterset';
import { scanDefinitionText, scanOutputFiles } from '../secrets/scan-secrets';
import type { Bundle, BundleSource, ClusterSetSources } from '../synth/synth-clusterset';
import type { Rule } from '../validate/rule';
import { fleetFacts, involved, replayWarnings, sourcePath, type DefinitionIndex, type FleetFacts } from './definition-index';
import type { DefinitionRecord, ManifestEntry } from '../output/manifest';
import { runFleetRules, runRawRules, runRules } from '../validate/run-rules';
import { validateWhatRemains } from '../validate/salvage';
import type * as Stages from './stages';

/*
 * The compiler's one pipeline, as tanka routes every command through one Process():
 * load → validate (rules, salvage, secret scan, fleet rules) → synth → check (schemas, collisions,
 * sizes, secret scan of every file) → a sink. compile(), the CLI's validate and synth, plan and
 * the construct library all run `pipeline`; they differ only in the sink, where the result goes
 * (memory, the output transaction, the plan's comparison, cdk8s charts).
 *
 * It is a generator so that one function serves both the asynchronous callers and the
 * synchronous one (cdk8s builds constructs synchronously): what can wait (loading TypeScript,
 * secretlint, loading synth and the layout stage) is yielded as an Effect, which runPipeline awaits and
 * runPipelineSync (run-sync.ts) performs while this thread waits.
 */

/**
 * What one revision of the definitions is: files to load, or sources already loaded (the
 * construct's); and the rules it runs, every rule unless a test shows what one of them prevents.
 */
export type PipelineInput = (
  | {
      readonly files: readonly string[];
      readonly load?: LoadOptions;
      /**
       * definitions manifest.json indexes (definition-index.ts), named relative to `root`: one whose
       * text the index holds is read but neither parsed nor built, unless it meets a definition
       * that is (the pull-request check of a large repository; every rule runs)
       */
      readonly index?: { readonly index: DefinitionIndex; readonly root: string };
    }
  | { readonly sources: readonly SourceFile[] }
) & {
  readonly rules?: readonly Rule[];
};

/** A definition the index vouched for: read, not parsed, not built. */
export interface IndexedDefinition {
  readonly file: string;
  readonly name: string;
  /** its entry in manifest.json, which a full run would write again */
  readonly entry: ManifestEntry;
  readonly record: DefinitionRecord;
}

/** One revision after validation. */
export interface ValidatedRevision {
  /** this revision's load and validate diagnostics */
  readonly diagnostics: Diagnostic[];
  readonly sources: readonly SourceFile[];
  /** the definitions that passed the schema (synthesized only when no revision has an error) */
  readonly parsed: readonly ParsedClusterSet[];
  /** file → text of every definition read, for code frames (also files that did not load) */
  readonly texts: ReadonlyMap<string, string>;
  /** definitions the index vouched for, in file order (none without an index) */
  readonly indexed: readonly IndexedDefinition[];
  /**
   * of `diagnostics`, those one definition gives on its own (rules over its data, its schema, its
   * secrets; and the index's replay of them): what the index records with it (definition-index.ts)
   */
  readonly own: readonly Diagnostic[];
}

/** A bundle laid out and checked: its own files and the shared units its layers list. */
export interface LaidBundle {
  readonly files: readonly OutputFile[];
  readonly units: readonly SharedUnit[];
}

/**
 * Where the result goes. Every hook but `finish` is optional; `revision` is the index of the input.
 * Hooks run in pipeline order: begin, then per ClusterSet `clusterSet`, `bundle` for each bundle
 * built, `endClusterSet`; `units` after each revision; `finish` last (also with errors: the sink
 * decides what an error means for it). A throw after `begin` reaches `abort` first.
 */
export interface Sink<R> {
  /** every revision validated without error, before synth; may report (and stop, with an error or false) */
  begin?(revisions: readonly ValidatedRevision[], sets: readonly (readonly ClusterSetSources[])[], diagnostics: Diagnostic[]): boolean | undefined;
  /** the cache of serialized and checked objects (the output sink knows the units its output holds) */
  cache?(): LayoutCache;
  clusterSet?(revision: number, set: ClusterSetSources): void;
  /** true: the destination already holds this bundle as it would be built, so it is not built, checked or sent */
  keepBundle?(revision: number, set: ClusterSetSources, source: BundleSource): boolean;
  /** true: the same for one cluster's engine objects */
  keepEngines?(revision: number, set: ClusterSetSources, clusterID: string, engines: ClusterEngineFiles): boolean;
  bundle?(revision: number, set: ClusterSetSources, bundle: Bundle, laid: LaidBundle): void;
  /**
   * The ClusterSet's files beside its bundles (engine objects not kept, notes), checked; with every
   * cluster's engine files (built, to name their paths) and the engine objects laid out, by folder.
   */
  endClusterSet?(
    revision: number,
    set: ClusterSetSources,
    files: readonly OutputFile[],
    engineFiles: ReadonlyMap<string, ClusterEngineFiles>,
    engines: Readonly<Record<string, readonly KubeObject[]>>,
  ): void;
  /** the shared units this revision built (none the output already holds), checked and scanned, in path order */
  units?(revision: number, units: readonly SharedUnit[]): void;
  finish(diagnostics: Diagnostic[]): R;
  abort?(err: unknown): void;
}

export interface PipelineResult<R> {
  /** every diagnostic of the run: each revision's, then the sink's and the layout stage's */
  readonly diagnostics: Diagnostic[];
  readonly revisions: readonly ValidatedRevision[];
  /** the sink's result; undefined without a sink or when validation stopped the run */
  readonly result?: R;
}

/** What the pipeline waits for; each driver performs it (see runPipeline and runPipelineSync). */
export type Effect =
  | {
      readonly kind: 'load';
      readonly files: readonly string[];
      readonly options: LoadOptions;
      readonly diagnostics: Diagnostic[];
      readonly texts: Map<string, string>;
      readonly skip?: (file: string, text: string) => boolean;
    }
  | { readonly kind: 'scan-definition'; readonly file: string; readonly text: string; readonly diagnostics: Diagnostic[] }
  | { readonly kind: 'scan-output'; readonly file: string; readonly files: readonly OutputFile[]; readonly diagnostics: Diagnostic[] }
  | { readonly kind: 'stages' };

/** Bundle files scanned for secrets at once: a bound on memory, and each scan's fixed cost paid rarely. */
const SCAN_BATCH_BYTES = 1 << 20;

/** The pipeline, top to bottom: each input validated, then (with a sink and no error) built, checked and sent. */
export function* pipeline<R>(inputs: readonly PipelineInput[], sink?: Sink<R>): Generator<Effect, PipelineResult<R>, unknown> {
  const revisions: ValidatedRevision[] = [];
  for (const input of inputs) revisions.push(yield* validate(input));
  const diagnostics = revisions.flatMap((r) => r.diagnostics);
  if (!sink || hasErrors(diagnostics)) return { diagnostics, revisions };

  // synth and the layout stage are loaded only now: `validate` starts without them (cdk8s, the schemas)
  const stages = (yield { kind: 'stages' }) as typeof Stages;
  const sets = revisions.map((r) => r.parsed.map(stages.clusterSetSources));
  if (sink.begin?.(revisions, sets, diagnostics) === false || hasErrors(diagnostics)) return { diagnostics, revisions };
  try {
    const cache = sink.cache?.() ?? new stages.LayoutCache();
    for (const [r, revisionSets] of sets.entries()) {
      // shared units built in this revision, each scanned once, as part of the definition that first listed it
      const units = new Map<string, { file: string; unit: SharedUnit }>();
      for (const set of revisionSets) {
        sink.clusterSet?.(r, set);
        const pending: OutputFile[] = [];
        let pendingBytes = 0;
        for (const source of set.sources) {
          if (sink.keepBundle?.(r, set, source)) continue;
          // synth one bundle, then check: schemas, collisions and sizes (layoutBundle)
          const bundle = source.synth();
          const laid = stages.layoutBundle(set, bundle, diagnostics, cache);
          for (const u of laid.units) if (!u.inOutput && !units.has(u.dir)) units.set(u.dir, { file: set.file, unit: u });
          sink.bundle?.(r, set, bundle, laid);
          // a secret never reaches the output, whatever route it took: bundles in batches, all before the sink finishes
          pending.push(...laid.files);
          pendingBytes += laid.files.reduce((n, f) => n + f.content.length, 0);
          if (pendingBytes >= SCAN_BATCH_BYTES) {
            yield { kind: 'scan-output', file: set.file, files: pending.splice(0), diagnostics };
            pendingBytes = 0;
          }
        }
        if (pending.length > 0) yield { kind: 'scan-output', file: set.file, files: pending, diagnostics };
        // engine objects (Argo CD, Flux) and the notes beside the bundles
        const engineFiles = stages.engineFilesByCluster(set);
        const changed = [...engineFiles].filter(([id, e]) => !sink.keepEngines?.(r, set, id, e)).flatMap(([, e]) => e.objects);
        const engines = stages.byFolder(set.delivery.clusterSet, changed);
        const files = stages.layoutShared(set, engines, diagnostics, cache);
        yield { kind: 'scan-output', file: set.file, files, diagnostics };
        sink.endClusterSet?.(r, set, files, engineFiles, engines);
      }
      const built = [...units.values()].sort((a, b) => (a.unit.dir < b.unit.dir ? -1 : a.unit.dir > b.unit.dir ? 1 : 0));
      for (const { file, unit } of built) yield { kind: 'scan-output', file, files: unit.files, diagnostics };
      sink.units?.(
        r,
        built.map((u) => u.unit),
      );
    }
    return { diagnostics, revisions, result: sink.finish(diagnostics) };
  } catch (err) {
    sink.abort?.(err);
    throw err;
  }
}

/** load, model and validate one revision: everything before synth. */
function* validate(input: PipelineInput): Generator<Effect, ValidatedRevision, unknown> {
  const diagnostics: Diagnostic[] = [];
  // load: parse each file (TypeScript in a sandbox), keeping a way back from data paths to line and column
  const texts = new Map<string, string>();
  let sources: readonly SourceFile[];
  let indexed: IndexedDefinition[] = [];
  if (!('files' in input)) {
    sources = input.sources;
    for (const s of sources) texts.set(s.file, s.text);
  } else if (input.index && !input.rules) ({ sources, indexed } = yield* loadIndexed(input.files, input.load ?? {}, input.index, diagnostics, texts));
  else sources = (yield { kind: 'load', files: input.files, options: input.load ?? {}, diagnostics, texts }) as SourceFile[];

  // what each definition gives on its own starts here; an indexed one's recorded warnings stand for it
  const start = diagnostics.length;
  for (const d of indexed) diagnostics.push(...replayWarnings(d.record, d.file));
  // model: shape, enums and defaults (zod); rules over raw data run even when that fails
  const parsed = sources.flatMap((source) => {
    runRawRules(source, diagnostics, input.rules);
    const p = parseClusterSet(source, diagnostics);
    // a schema error does not hide the rest: the rules run over what can be checked
    if (!p) validateWhatRemains(source, diagnostics);
    return p ?? [];
  });
  // secrets anywhere in a definition's text (values, keys, comments), by secretlint's detectors;
  // a definition given as data (the construct's) is scanned as its JSON
  for (const source of sources) yield { kind: 'scan-definition', file: source.file, text: source.text || JSON.stringify(source.data, null, 2), diagnostics };

  // validate: cross-field and cross-cluster rules over the effective settings, then across definitions
  for (const p of parsed) runRules(p, diagnostics, input.rules);
  const own = diagnostics.slice(start);
  duplicateClusterSetNames(parsed, diagnostics);
  runFleetRules(parsed, diagnostics, input.rules);
  return { diagnostics, sources, parsed, texts, indexed, own };
}

/**
 * Loads the definitions the index does not vouch for, then those it does whose facts meet theirs
 * or each other's (definition-index.ts `involved`): what the rules across definitions report on
 * is parsed, the rest is only read and hashed. Sources stay in file order.
 */
function* loadIndexed(
  files: readonly string[],
  options: LoadOptions,
  { index, root }: { readonly index: DefinitionIndex; readonly root: string },
  diagnostics: Diagnostic[],
  texts: Map<string, string>,
): Generator<Effect, { sources: SourceFile[]; indexed: IndexedDefinition[] }, unknown> {
  const vouched = new Map<string, FleetFacts & { readonly entry: ManifestEntry; readonly record: DefinitionRecord }>();
  const skip = (file: string, text: string) => {
    const facts = index.lookup(sourcePath(file, root), text);
    if (facts) vouched.set(file, facts);
    return facts !== undefined;
  };
  const loaded = (yield { kind: 'load', files, options, diagnostics, texts, skip }) as SourceFile[];
  if (vouched.size === 0) return { sources: loaded, indexed: [] };
  const own = new Map<string, FleetFacts>();
  for (const source of loaded) {
    const parsed = parseClusterSet(source, []);
    if (parsed) own.set(source.file, fleetFacts(parsed));
  }
  const order = files.filter((f) => vouched.has(f) || own.has(f));
  const meet = involved(order.map((f) => vouched.get(f) ?? own.get(f)!));
  const more = order.filter((f, at) => meet.has(at) && vouched.has(f));
  for (const f of more) vouched.delete(f);
  const extra = more.length > 0 ? ((yield { kind: 'load', files: more, options, diagnostics, texts }) as SourceFile[]) : [];
  const byFile = new Map([...loaded, ...extra].map((s) => [s.file, s]));
  return {
    sources: files.flatMap((f) => byFile.get(f) ?? []),
    indexed: files.flatMap((file) => {
      const v = vouched.get(file);
      return v ? [{ file, name: v.name, entry: v.entry, record: v.record }] : [];
    }),
  };
}

/** Two definitions with one ClusterSet name would write the same folder. */
function duplicateClusterSetNames(parsed: readonly ParsedClusterSet[], diagnostics: Diagnostic[]): void {
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

/** Runs the pipeline, awaiting its effects: the CLI, compile(), plan. */
export async function runPipeline<R>(inputs: readonly PipelineInput[], sink?: Sink<R>): Promise<PipelineResult<R>> {
  const run = pipeline(inputs, sink);
  let step = run.next();
  while (!step.done) {
    let value: unknown;
    try {
      value = await perform(step.value);
    } catch (err) {
      step = run.throw(err);
      continue;
    }
    step = run.next(value);
  }
  return step.value;
}

async function perform(effect: Effect): Promise<unknown> {
  switch (effect.kind) {
    case 'load':
      return loadClusterSets(effect.files, effect.diagnostics, effect.options, effect.texts, effect.skip);
    case 'scan-definition':
      return scanDefinitionText(effect.file, effect.text, effect.diagnostics);
    case 'scan-output':
      return scanOutputFiles(effect.file, effect.files, effect.diagnostics);
    case 'stages':
      return import('./stages');
  }
}

/** The pipeline without a sink: load and validate a set of files (the front half every entry point runs). */
export async function validateDefinitions(files: readonly string[], options: LoadOptions = {}): Promise<ValidatedRevision> {
  const { revisions } = await runPipeline([{ files, load: options }]);
  return revisions[0]!;
}
