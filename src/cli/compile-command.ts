import { dirname, join, resolve } from 'node:path';
import { manifestAt } from '../plan/revision-index';
import { DefinitionIndex } from '../pipeline/definition-index';
import { blobRecord, type Manifest } from '../output/manifest';
import { hasErrors, type Diagnostic } from '../diagnostics/diagnostic';
import { diagnosticStyle } from '../diagnostics/diagnostic-style';
import { errnoCode, fileSystemDiagnostic } from '../diagnostics/file-system';
import { printable } from '../diagnostics/printable';
import { render } from '../diagnostics/render';
import { OutputError } from '../output/output-error';
import { findDefinitionsDir } from '../load/find-definitions-dir';
import { findDefinitionFiles } from '../load/load-clustersets';
import { plural } from '../text/plural';
import { runPipeline, type PipelineResult } from '../pipeline/pipeline';
import type { OutputSinkResult } from '../pipeline/output-sink';
import { UsageError, type Args, type Context } from './command';

/** validate and synth: find files, compile, print diagnostics, then write or compare the output. */
export async function compileCommand(name: 'validate' | 'synth', args: Args, { io, env, docs }: Context): Promise<number> {
  const format = (args.options.format ?? 'text') as string;
  if (!['text', 'json', 'github'].includes(format)) throw new UsageError(`--format must be text, json or github, not "${format}"`);
  const quiet = args.options.quiet === true;
  // run from a subdirectory, the repository's clustersets/ is read and its dist/ beside it written
  const definitionsDir = findDefinitionsDir(process.cwd());
  const out = (args.options.out as string | undefined) ?? env.CDK8S_OUTDIR ?? join(dirname(definitionsDir), 'dist');
  // the default folder named (`synth clustersets`) is the default: every definition, so the output's other ClusterSets go
  const full = args.positionals.every((p) => resolve(p) === resolve(definitionsDir));

  // results (what was checked or written) go to stdout, diagnostics to stderr; json and github are results
  const diagnostics: Diagnostic[] = [];
  const files = findDefinitionFiles(full ? [definitionsDir] : args.positionals, diagnostics);
  const check = args.options.check === true;
  // synth: the pipeline's sink is the output transaction (loaded only for synth: validate starts without the check and output stages)
  const output =
    name === 'synth' ? (await import('../pipeline/output-sink')).outputSink({ out, full, check, rebuild: args.options.rebuild === true }) : undefined;
  let result: PipelineResult<OutputSinkResult | undefined> | undefined;
  let failure: unknown;
  try {
    // validate and synth --check with --base read that revision's index: definitions unchanged since are hashed, not compiled
    const base = typeof args.options.base === 'string' ? args.options.base : undefined;
    const indexed = base !== undefined && args.options['no-index'] !== true && (name === 'validate' || (check && args.options.rebuild !== true));
    const read = indexed ? await pullRequestIndex(out, check, base) : undefined;
    const index = read?.index;
    if (output && read) output.recorded = read.manifest;
    result =
      files.length > 0
        ? await runPipeline(
            [{ files, load: { typescript: args.options['no-typescript'] !== true }, ...(index && { index: { index, root: `${out}/..` } }) }],
            output,
          )
        : undefined;
  } catch (err) {
    // the output is untouched (or finished by the next run); the user sees the path and the reason
    if (!(err instanceof OutputError) && !errnoCode(err)) throw err;
    failure = err;
  }
  const validated = output?.validated;
  const done = result ?? validated;
  diagnostics.push(...(done?.diagnostics ?? []));
  const sources = new Map(done?.revisions[0]?.texts);
  // the summary counts every path looked at, including those that could not be read
  const checked = new Set([...files, ...diagnostics.map((d) => d.file)]).size;
  const style = diagnosticStyle(format, io.stderr, env);
  const report = (extra: Diagnostic[] = []) => {
    const all = [...diagnostics, ...extra];
    if (style.format === 'json') io.stdout.write(render('json', all));
    else if (all.length > 0)
      (style.format === 'github' ? io.stdout : io.stderr).write(render(style.format, all, sources, { files: checked, color: style.color, docs }));
    return hasErrors(all);
  };
  // --out and CDK8S_OUTDIR are text we print too
  const shown = printable(out);
  const say = (line: string) => {
    if (!quiet && format === 'text') io.stdout.write(`${line}\n`);
  };

  if (failure || output?.problem) {
    const action = check ? 'compare with' : 'write into';
    const hint = 'choose an empty or absent --out, or the output of a previous synth';
    if (failure instanceof OutputError)
      report([{ ...fileSystemDiagnostic(failure.file ?? out, action, failure), message: failure.message, hint: failure.hint ?? hint }]);
    else report([output?.problem ?? fileSystemDiagnostic((failure as NodeJS.ErrnoException).path ?? out, check ? 'read' : 'write', failure)]);
    return 2;
  }
  if (!validated || name === 'validate') {
    if (report()) return 1;
    say(`${files.length} definition${files.length === 1 ? '' : 's'} valid`);
    return 0;
  }
  const emitted = result?.result;
  if (report() || !emitted) return 1;
  return reportOutput(emitted, check, shown, io, say);
}

/** What synth did, or what synth --check found: stale files by name on stderr, else one summary line. */
function reportOutput(emitted: OutputSinkResult, check: boolean, shown: string, io: Context['io'], say: (line: string) => void): number {
  if (check) {
    if (emitted.stale.length > 0) {
      // a synth without --rebuild keeps what its recorded inputs say is unchanged, edited or not
      const repair = emitted.keptStale ? 'clusterset synth --rebuild' : 'clusterset synth';
      // the names are the pull request's (a file added to dist/): each on its line, escaped (printable.ts)
      io.stderr.write(`${shown} is stale; run \`${repair}\` and commit the result:\n${emitted.stale.map((s) => `  ${printable(s)}`).join('\n')}\n`);
      return 1;
    }
    say(`${shown} is up to date (${plural(emitted.files, 'file')}, ${plural(emitted.clusters, 'cluster')})`);
    return 0;
  }
  // the pull request's links, FIFOs and devices in the output: named, whatever the format (never read; replaced or removed)
  for (const entry of emitted.irregular)
    io.stderr.write(`warning: ${shown}/${printable(entry)} was not a regular file: replaced or removed without being read or followed\n`);
  const total = `${plural(emitted.files, 'file')} for ${plural(emitted.clusters, 'cluster')}; ${plural(emitted.built, 'bundle')} built`;
  // written and removed apart: a member removed is its files removed, not written
  const wrote = `wrote ${plural(emitted.written, 'changed file')}`;
  const removed = `removed ${plural(emitted.removed, 'file')}`;
  say(
    emitted.changed === 0
      ? `${shown} unchanged (${total})`
      : emitted.removed === 0
        ? `${wrote} into ${shown} (${total})`
        : emitted.written === 0
          ? `${removed} from ${shown} (${total})`
          : `${wrote} and ${removed} in ${shown} (${total})`,
  );
  return 0;
}

/**
 * The index of definitions in `out`'s manifest.json (definition-index.ts); with `check`, only the
 * entries whose folder holds exactly the files and blob ids recorded, and whose shared units are
 * what their names say (output-blobs.ts, layout.ts unitOnDisk): the output is untrusted, so a
 * ClusterSet whose files differ in any way is compiled and compared as a full check would.
 */
async function pullRequestIndex(
  out: string,
  check: boolean,
  base: string,
): Promise<{ index?: DefinitionIndex; manifest: Partial<Manifest> | null } | undefined> {
  // the base revision's manifest, never the work tree's: dist/ is the pull request's (plan/revision-index.ts)
  const manifest = manifestAt(process.cwd(), base, out) ?? null;
  if (!manifest) return undefined;
  const index = new DefinitionIndex(manifest);
  if (index.size === 0 || !check) return { manifest, ...(index.size > 0 && { index }) };
  const entries = [...index.entries()];
  const { folderBlobs } = await import('../output/output-blobs');
  const { unitOnDisk } = await import('../layout/layout');
  const onDisk = await folderBlobs(
    out,
    entries.map(([, { name }]) => name),
  );
  const units = new Map<string, boolean>();
  const unitOk = (dir: string) => {
    let ok = units.get(dir);
    if (ok === undefined) units.set(dir, (ok = typeof dir === 'string' && /^_shared\/[^/]+\/[^/]+\/[0-9a-f]{12}$/.test(dir) && unitOnDisk(out, dir)));
    return ok;
  };
  for (const [source, { name, entry }] of entries) {
    // the folder on disk recorded as a synth records it: each file's id, a bundle's folder by its digest
    const files = new Map(Object.entries(blobRecord(onDisk.get(name)!, new Set(entry.clusters.map((c) => c.clusterID)))));
    const recorded = entry.blobs && typeof entry.blobs === 'object' ? Object.entries(entry.blobs) : undefined;
    const same = recorded !== undefined && recorded.length === files.size && recorded.every(([path, id]) => files.get(path) === id);
    if (!same || !Array.isArray(entry.shared) || !entry.shared.every(unitOk)) index.forget(source);
  }
  return { manifest, ...(index.size > 0 && { index }) };
}
