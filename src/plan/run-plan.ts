import { existsSync, rmSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { runPipeline, type ValidatedRevision, type PipelineResult, type Sink } from '../pipeline/pipeline';
import { sourcePath, type DefinitionIndex } from '../pipeline/definition-index';
import { hasErrors, type Diagnostic } from '../diagnostics/diagnostic';
import { findDefinitionFiles, MAX_DEFINITION_BYTES } from '../load/load-clustersets';
import { readSourceFile } from '../load/definition-folder';
import { planSink } from './plan-sink';
import { upgradeFromMissing } from './upgrade-from-missing';
import { planChanges } from './plan-changes';
import type { CompiledRevision, Plan } from './plan';
import { transitionDiagnostic } from '../validate/run-transitions';
import { describeRevisions } from './describe-revisions';
import { checkRepository, defaultBase, readRevision, type Revision } from './read-revision';

export interface PlanOptions {
  /** the repository directory the paths are relative to */
  readonly cwd: string;
  /** definition files or directories, relative to cwd */
  readonly paths: readonly string[];
  /** git revision to compare with; default: the merge base with the default branch */
  readonly base?: string;
  /** inventory files for the Connections section (src/policy/); without any, representative endpoints */
  readonly inventory?: readonly string[];
  /** false: no Connections section (the bench's measure of the plan without it) */
  readonly policyImpact?: boolean;
  /**
   * the base revision's manifest.json index (definition-index.ts) and the folder its sources are
   * relative to (the output's parent): a definition both revisions hold with the text it indexes
   * is neither compiled nor compared, unless either revision's rules across definitions read it
   */
  readonly index?: { readonly index: DefinitionIndex; readonly root: string };
}

export interface PlanResult {
  readonly base: string;
  readonly head: string;
  /** the revisions in words, for the plan's header: branches and short commits */
  readonly header: { readonly base: string; readonly head: string };
  /** undefined when either revision has errors */
  readonly plan?: Plan;
  readonly diagnostics: readonly Diagnostic[];
  /** file → text, for code frames (base files are named `<ref>:<path>`) */
  readonly sources: ReadonlyMap<string, string>;
}

/**
 * Validates the definitions at `base` (read from git's object store into a temporary directory)
 * and in the work tree, builds in memory what differs between them (changed-outputs.ts: bundles
 * and engine objects whose input hashes are equal are the same objects) and compares it: the
 * pipeline (pipeline/pipeline.ts) over both revisions into planSink, so what either side builds
 * passes synth's self-checks first (schemas, collisions, sizes, secrets). Nothing is written to
 * the work tree. Throws GitError for a problem with the repository or the ref.
 */
export async function runPlan(options: PlanOptions): Promise<PlanResult> {
  checkRepository(options.cwd, options.base, options.paths);
  const base = options.base ?? defaultBase(options.cwd);
  const header = describeRevisions(options.cwd, base, options.base);
  const revision = readRevision(options.cwd, base, options.paths);
  const sources = new Map<string, string>();
  const diagnostics: Diagnostic[] = [];
  try {
    // head: the work tree; a path the change removed is simply empty
    const existing = options.paths.filter((p) => existsSync(join(options.cwd, p)));
    const found: Diagnostic[] = [];
    const files = findDefinitionFiles(
      existing.map((p) => join(options.cwd, p)),
      found,
    );
    diagnostics.push(...found.filter((d) => !(d.code === 'file-system' && existing.some((p) => join(options.cwd, p) === d.file))));
    // the pipeline over both revisions: base files (read from git) are named `<ref>:<path>` in
    // diagnostics, by their repository path otherwise; what differs is built and checked as synth would
    const run = await runBoth(options, revision, files, () => (hasErrors(diagnostics) ? undefined : planSink()));
    const rename = (file: string) => (file.startsWith(revision.dir) ? file.slice(revision.dir.length + 1) : file);
    const named = (file: string) => (file.startsWith(revision.dir) ? `${base}:${rename(file)}` : file);
    // a message may name a base file by its path in the temporary copy (file-system's): by `<ref>:<path>` too
    const copies = [revision.dir, relative(process.cwd(), revision.dir)].map((d) => `${d}${sep}`);
    const namedIn = (text: string) => copies.reduce((t, c) => t.split(c).join(`${base}:`), text);
    for (const d of run.diagnostics)
      diagnostics.push({
        ...d,
        file: named(d.file),
        message: namedIn(d.message),
        ...(d.related && { related: d.related.map((r) => ({ ...r, file: named(r.file) })) }),
      });
    const [baseResult, headResult] = run.revisions as [ValidatedRevision, ValidatedRevision];
    upgradeFromMissing(baseResult.parsed, headResult.parsed, diagnostics);
    for (const [file, text] of [...baseResult.texts, ...headResult.texts]) sources.set(named(file), text);
    const outputs = run.result;
    if (hasErrors(diagnostics) || !outputs) return { base, head: 'work tree', header, diagnostics, sources };
    const definitions = {
      base: definitionsOf(baseResult, rename),
      head: definitionsOf(headResult, (f) => relative(options.cwd, resolve(f)).split('\\').join('/')),
    };
    let plan = planChanges({ outputs: outputs[0]!.outputs, definitions: definitions.base }, { outputs: outputs[1]!.outputs, definitions: definitions.head });
    if (options.policyImpact !== false) {
      const { withConnections } = await import('./policy-impact');
      const connected = withConnections(plan, options.inventory ?? [], diagnostics);
      if (!connected) return { base, head: 'work tree', header, diagnostics, sources };
      plan = connected;
    }
    // what the clusters refuse: at its line in the head file (or the base file, for what the change removed)
    diagnostics.push(...findingDiagnostics(plan.findings, definitions.base, definitions.head, base));
    return { base, head: 'work tree', header, diagnostics, sources, plan };
  } finally {
    rmSync(revision.dir, { recursive: true, force: true });
  }
}

/**
 * The pipeline over both revisions, base and work tree, with the index where there is one. A
 * definition is left out only when it is left out of both revisions: one the index vouches for in
 * one revision and not in the other (its text changed, or the other revision's rules across
 * definitions read it) is forgotten and the run repeated, so both compile it and the plan compares
 * it. The usual change needs one run.
 */
async function runBoth<R>(options: PlanOptions, revision: Revision, files: readonly string[], sink: () => Sink<R> | undefined): Promise<PipelineResult<R>> {
  const baseFiles = revision.files.map((f) => join(revision.dir, f));
  const load = { known: revision.texts };
  if (!options.index) return runPipeline([{ files: baseFiles, load }, { files }], sink());
  const { index, root } = options.index;
  const roots = [join(revision.dir, relative(options.cwd, resolve(root))), root];
  forgetChanged(index, [baseFiles, files], roots, load.known);
  for (;;) {
    const run = await runPipeline(
      [baseFiles, files].map((f, r) => ({ files: f, ...(r === 0 && { load }), index: { index, root: roots[r]! } })),
      sink(),
    );
    const [base, head] = run.revisions.map((r, i) => new Set(r.indexed.map((d) => sourcePath(d.file, roots[i]!))));
    const once = [...base!, ...head!].filter((s) => !base!.has(s) || !head!.has(s));
    // each pass forgets at least one definition: the loop ends
    if (once.length === 0) return run;
    for (const source of once) index.forget(source);
  }
}

/**
 * A definition whose text differs between the revisions (or that one of them lacks) is vouched for
 * in one at most: forgotten before the first pass, which would only find that out and run again
 * (the usual change then needs one run, not two). Conservative: a text read apart from the loader
 * that differs only makes the definition compiled, as it would be without an index.
 */
function forgetChanged(index: DefinitionIndex, revisions: readonly (readonly string[])[], roots: readonly string[], known: ReadonlyMap<string, string>): void {
  // read as the loader reads (readSourceFile: a regular file in its folder, within the size limit);
  // one it refuses is forgotten, and compiled
  const folders: Parameters<typeof readSourceFile>[2] = new Map();
  const read = (file: string) => {
    const r = known.get(file) ?? readSourceFile(file, MAX_DEFINITION_BYTES, folders);
    return typeof r === 'string' ? r : r.ok ? r.text : undefined;
  };
  const [base, head] = revisions.map((files, r) => new Map(files.map((f) => [sourcePath(f, roots[r]!), f])));
  for (const source of new Set([...base!.keys(), ...head!.keys()])) {
    const [b, h] = [base!.get(source), head!.get(source)];
    const text = b === undefined ? undefined : read(b);
    if (text === undefined || h === undefined || text !== read(h)) index.forget(source);
  }
}

/** A revision's definitions, keyed by ClusterSet name and named by repository path. */
function definitionsOf(result: ValidatedRevision, fileName: (f: string) => string): CompiledRevision['definitions'] {
  return new Map(result.parsed.map((p) => [p.definition.metadata.name, { definition: p.definition, file: fileName(p.source.file), source: p.source }]));
}

function findingDiagnostics(
  findings: Plan['findings'],
  base: CompiledRevision['definitions'],
  head: CompiledRevision['definitions'],
  ref: string,
): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const f of findings ?? []) {
    const after = head.get(f.clusterSet);
    // the base side of a pair has the same name or, for a rename, the same file
    const before = base.get(f.clusterSet) ?? [...base.values()].find((b) => b.file === after?.file);
    if (!after?.source || !before?.source) continue;
    const d = transitionDiagnostic(f, { before: before.source, after: after.source });
    const named = (file: string) => (file === before.source!.file ? `${ref}:${before.file}` : file);
    out.push({ ...d, file: named(d.file), ...(d.related && { related: d.related.map((r) => ({ ...r, file: named(r.file) })) }) });
  }
  return out;
}
