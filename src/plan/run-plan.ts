import { existsSync, rmSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { compile, type CompileResult } from '../compile';
import type { Diagnostic } from '../diagnostics/diagnostic';
import { findDefinitionFiles } from '../load/load-clustersets';
import { parseClusterSet } from '../model/parse-clusterset';
import { planChanges, type CompiledRevision, type Plan } from './plan-changes';
import { defaultBase, readRevision } from './read-revision';

export interface PlanOptions {
  /** the repository directory the paths are relative to */
  readonly cwd: string;
  /** definition files or directories, relative to cwd */
  readonly paths: readonly string[];
  /** git revision to compare with; default: the merge base with the default branch */
  readonly base?: string;
}

export interface PlanResult {
  readonly base: string;
  readonly head: string;
  /** undefined when either revision has errors */
  readonly plan?: Plan;
  readonly diagnostics: readonly Diagnostic[];
  /** file → text, for code frames (base files are named `<ref>:<path>`) */
  readonly sources: ReadonlyMap<string, string>;
}

/**
 * Compiles the definitions at `base` (read from git's object store into a temporary directory)
 * and in the work tree, both in memory, and compares them. Nothing is written to the work tree.
 * Throws GitError for a problem with the repository or the ref.
 */
export async function runPlan(options: PlanOptions): Promise<PlanResult> {
  const base = options.base ?? defaultBase(options.cwd);
  const revision = readRevision(options.cwd, base, options.paths);
  const sources = new Map<string, string>();
  const diagnostics: Diagnostic[] = [];
  try {
    // base: files named `<ref>:<path>` in diagnostics, by their repository path otherwise
    const baseResult = await compile({ files: revision.files.map((f) => join(revision.dir, f)) });
    const rename = (file: string) => (file.startsWith(revision.dir) ? file.slice(revision.dir.length + 1) : file);
    for (const d of baseResult.diagnostics)
      diagnostics.push({
        ...d,
        file: `${base}:${rename(d.file)}`,
        ...(d.related && { related: d.related.map((r) => ({ ...r, file: `${base}:${rename(r.file)}` })) }),
      });
    for (const s of baseResult.sources) sources.set(`${base}:${rename(s.file)}`, s.text);

    // head: the work tree; a path the change removed is simply empty
    const existing = options.paths.filter((p) => existsSync(join(options.cwd, p)));
    const found: Diagnostic[] = [];
    const files = findDefinitionFiles(
      existing.map((p) => join(options.cwd, p)),
      found,
    );
    diagnostics.push(...found.filter((d) => !(d.code === 'file-system' && existing.some((p) => join(options.cwd, p) === d.file))));
    const headResult = files.length > 0 ? await compile({ files }) : emptyResult();
    diagnostics.push(...headResult.diagnostics);
    for (const s of headResult.sources) sources.set(s.file, s.text);

    const failed = diagnostics.some((d) => d.severity === 'error');
    const plan = failed
      ? undefined
      : planChanges(
          compiled(baseResult, rename),
          compiled(headResult, (f) => relative(options.cwd, resolve(f)).split('\\').join('/')),
        );
    return { base, head: 'work tree', diagnostics, sources, ...(plan && { plan }) };
  } finally {
    rmSync(revision.dir, { recursive: true, force: true });
  }
}

const emptyResult = (): CompileResult => ({ diagnostics: [], sources: [], outputs: [], files: [] });

/** Outputs with the definitions they came from, keyed by ClusterSet name and named by repository path. */
function compiled(result: CompileResult, fileName: (f: string) => string): CompiledRevision {
  const definitions = new Map<string, { definition: import('../model/clusterset').ClusterSet; file: string }>();
  for (const source of result.sources) {
    const parsed = parseClusterSet(source, []);
    if (parsed) definitions.set(parsed.definition.metadata.name, { definition: parsed.definition, file: fileName(source.file) });
  }
  return { outputs: result.outputs, definitions };
}
