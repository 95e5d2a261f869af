import { lstatSync, statSync } from 'node:fs';
import { hasErrors, type Diagnostic } from '../diagnostics/diagnostic';
import { errnoCode, fileSystemDiagnostic } from '../diagnostics/file-system';
import { COMPILER } from '../compiler-version';
import type { FileSystemOps } from '../output/file-system-ops';
import { LayoutCache, SHARED_ROOT, unitsListed, type ClusterEngineFiles, type OutputFile } from '../layout/layout';
import {
  MANIFEST,
  manifestEntryOf,
  manifestFile,
  recordedFiles,
  type BundleFiles,
  type DefinitionRecord,
  type Manifest,
  type ManifestEntry,
} from '../output/manifest';
import { blobId } from '../output/output-blobs';
import { definitionRecords, withoutMentioned } from './definition-index';
import { OutputTransaction } from '../output/output-transaction';
import { LAYER_DIRECTORIES } from '../delivery/layer-paths';
import type { ValidatedRevision, LaidBundle, Sink } from './pipeline';
import type { Bundle, BundleSource, ClusterSetSources } from '../synth/synth-clusterset';

export interface OutputSinkOptions {
  /** the output directory */
  readonly out: string;
  /** compare instead of writing: the result lists stale files */
  readonly check?: boolean;
  /**
   * true when every definition was compiled: folders of ClusterSets that no definition names are
   * removed (or, with check, reported); false keeps the other ClusterSets of the output
   */
  readonly full: boolean;
  /** rebuild every bundle even when manifest.json says its inputs are unchanged */
  readonly rebuild?: boolean;
  /** file-system operations (fault-injection tests replace them) */
  readonly fs?: FileSystemOps;
}

export interface OutputSinkResult {
  /** files of the output (written, unchanged or kept) */
  readonly files: number;
  readonly clusters: number;
  /** bundles built in this run (the others were unchanged and kept) */
  readonly built: number;
  /** files written, replaced or removed */
  readonly changed: number;
  /** of those, files written or replaced */
  readonly written: number;
  /** of those, files removed (a removed folder counts its files) */
  readonly removed: number;
  /** with check: changed, missing and extra files */
  readonly stale: readonly string[];
  /**
   * with check: some stale file lies where a synth without --rebuild keeps the output as this
   * compiler wrote it (a bundle, a cluster's engine files or a shared unit whose inputs are
   * unchanged), so only `synth --rebuild` repairs it
   */
  readonly keptStale: boolean;
  /**
   * entries of the output that were not regular files (links, FIFOs, devices: the pull request's),
   * as `path (what it is)`: never read or followed; a synth replaced or removed them
   */
  readonly irregular: readonly string[];
}

/**
 * The sink of `clusterset synth`: the pipeline's files, one bundle at a time, straight into a
 * transaction on the output directory, so memory holds one bundle and the paths of the rest, not
 * the fleet. A bundle whose inputs hash equals the one manifest.json recorded (and whose folder is
 * there) is kept: neither built nor touched; every other file is compared with the output and
 * written only when its bytes differ. Any error abandons the transaction: nothing is written from
 * a broken input. The result is undefined then.
 */
export function outputSink(options: OutputSinkOptions): OutputSink {
  const run = new OutputRun(options);
  const sink: OutputSink = {
    begin: (revisions, _sets, diagnostics) => run.begin(sink, revisions, diagnostics),
    cache: () => run.cache,
    clusterSet: (_r, set) => run.clusterSet(set),
    keepBundle: (_r, set, source) => run.keepBundle(set, source),
    bundle: (_r, _set, bundle, laid) => run.bundle(bundle, laid),
    keepEngines: (_r, _set, clusterID, e) => run.keepEngines(clusterID, e),
    endClusterSet: (_r, set, shared, engineFiles) => run.endClusterSet(set, shared, engineFiles),
    units: (_r, built) => {
      run.units = built;
    },
    finish: (diagnostics) => run.finish(diagnostics, sink.validated?.revisions[0]?.own),
    abort: (err) => run.abort(err),
  };
  return sink;
}

/** What the output holds of the ClusterSet being emitted, and what this run lays out for it. */
class ClusterSetRun {
  /** the recorded ids by the folder under the ClusterSet's (a bundle's is its cluster ID) */
  readonly blobsByFolder = new Map<string, [string, string][]>();
  readonly recorded: Map<string, ManifestEntry['clusters'][number]>;
  readonly expected = new Set<string>();
  readonly kept: string[] = [];
  readonly folders = new Map<string, BundleFiles>();
  /** the ClusterSet's files and their blob ids (manifest.json records them for `synth --check`) */
  readonly blobs = new Map<string, string>();

  constructor(readonly before: ManifestEntry | undefined) {
    if (before?.blobs && typeof before.blobs === 'object') {
      for (const [rel, id] of Object.entries(before.blobs)) {
        const folder = rel.slice(0, Math.max(rel.indexOf('/'), 0));
        let list = this.blobsByFolder.get(folder);
        if (!list) this.blobsByFolder.set(folder, (list = []));
        list.push([rel, id]);
      }
    }
    this.recorded = new Map((before?.clusters ?? []).map((c) => [c.clusterID, c]));
  }
}

/**
 * One synth's state across the sink's steps (`outputSink`): the transaction, the previous
 * manifest.json, the entries of the next one and the counts of the result.
 */
class OutputRun {
  cache!: LayoutCache;
  units: readonly { dir: string; files: readonly OutputFile[] }[] = [];
  private tx!: OutputTransaction;
  private previous!: Manifest;
  private entries: Record<string, ManifestEntry> = {};
  private files = 0;
  private clusters = 0;
  private built = 0;
  /** the ClusterSet being emitted */
  private emitting = new ClusterSetRun(undefined);
  /** each entry's definition file: its record stays in the index only without a diagnostic */
  private readonly definitionFiles = new Map<string, string>();
  private records: ReadonlyMap<string, DefinitionRecord> = new Map();
  private readonly reuse: boolean;
  /** with check: what a synth without --rebuild would keep, so the repair can be named */
  private readonly keptFolders = new Set<string>();
  private readonly keptFiles = new Set<string>();

  constructor(private readonly options: OutputSinkOptions) {
    this.reuse = !options.check && !options.rebuild;
  }

  begin(sink: OutputSink, revisions: readonly ValidatedRevision[], diagnostics: Diagnostic[]): boolean {
    const { options } = this;
    sink.validated = { revisions, diagnostics };
    this.records = definitionRecords(revisions[0]);
    // an output path that is a file (or below one) is named before anything is compared or written
    sink.problem = outputDirectoryProblem(options.out, options.check ? 'compare with' : 'write into');
    if (sink.problem) return false;
    const tx = (this.tx = new OutputTransaction(options.out, { check: options.check === true, ...(options.fs && { fs: options.fs }) }));
    try {
      tx.begin();
    } catch (err) {
      tx.crashed(err);
      throw err;
    }
    // with check, manifest.json as the index read it (9.6 MB at 1,000 ClusterSets: parsed once)
    const previous = (this.previous = options.check && sink.recorded !== undefined ? manifestOf(sink.recorded) : readManifest(tx));
    // a shared unit the previous run of this compiler recorded, and whose folder is there, is named
    // by its bytes: a bundle that lists it needs neither its checks nor its writes
    const recordedUnits = new Set(previous.compiler === COMPILER && !options.rebuild ? Object.values(previous.clusterSets).flatMap((e) => e.shared) : []);
    const inOutput = (dir: string) => recordedUnits.has(dir) && tx.exists(`${dir}/kustomization.yaml`);
    this.cache = new LayoutCache(undefined, (dir) => this.reuse && inOutput(dir));
    if (options.check) for (const dir of recordedUnits) if (inOutput(dir)) this.keptFolders.add(dir);
    this.entries = options.full ? {} : { ...previous.clusterSets };
    // definitions the index vouched for, output verified (compile-command.ts): their entries as recorded, their folders untouched
    for (const { name, entry } of revisions[0]?.indexed ?? []) {
      this.entries[name] = entry;
      this.clusters += entry.clusters.length;
      this.files += recordedFiles(entry);
    }
    return true;
  }

  clusterSet(set: ClusterSetSources): void {
    this.emitting = new ClusterSetRun(this.previous.clusterSets[set.name]);
    this.clusters += set.sources.length;
  }

  keepBundle(set: ClusterSetSources, source: BundleSource): boolean {
    const { tx, options } = this;
    const { before, recorded } = this.emitting;
    const dir = `${set.name}/${source.clusterID}`;
    const old = recorded.get(source.clusterID);
    const unchanged = old?.inputs === source.inputs && old.role === source.role && tx.exists(`${dir}/kustomization.yaml`);
    if (options.check && unchanged) this.keptFolders.add(dir);
    if (!this.reuse || !unchanged) return false;
    // unchanged inputs: the folder stays as the run that recorded them wrote it, with the units it lists
    // (recorded in manifest.json; read back from its layers when an older manifest lacks them)
    const listed = old.units?.map((i) => before!.shared[i]).filter((u) => u !== undefined);
    const folder: BundleFiles =
      listed !== undefined && old.files !== undefined
        ? { files: old.files, units: listed }
        : { files: tx.countFiles(dir), units: unitsListed(LAYER_DIRECTORIES.map((l) => tx.read(`${dir}/${l}/kustomization.yaml`) ?? '')) };
    this.emitting.folders.set(source.clusterID, folder);
    const recordedBlobs = this.emitting.blobsByFolder.get(source.clusterID);
    if (recordedBlobs) for (const [rel, id] of recordedBlobs) this.emitting.blobs.set(`${set.name}/${rel}`, id);
    else for (const rel of tx.listFiles(dir)) this.emitting.blobs.set(rel, this.keptBlob(rel));
    this.emitting.kept.push(dir);
    this.files += folder.files;
    return true;
  }

  bundle(bundle: Bundle, laid: LaidBundle): void {
    this.emitting.folders.set(bundle.clusterID, { files: laid.files.length, units: laid.units.map((u) => u.dir) });
    this.built++;
    for (const f of laid.files) this.put(f);
  }

  /** engine files of a cluster whose delivery inputs hash as recorded stay as they are */
  keepEngines(clusterID: string, e: ClusterEngineFiles): boolean {
    const unchanged = this.emitting.recorded.get(clusterID)?.engines === e.hash && e.paths.every((path) => this.tx.listed(path));
    if (this.options.check && unchanged) for (const path of e.paths) this.keptFiles.add(path);
    if (!this.reuse || !unchanged) return false;
    for (const path of e.paths) {
      this.emitting.expected.add(path);
      this.emitting.blobs.set(path, this.keptBlob(path));
    }
    this.files += e.paths.length;
    return true;
  }

  endClusterSet(set: ClusterSetSources, shared: readonly OutputFile[], engineFiles: ReadonlyMap<string, ClusterEngineFiles>): void {
    for (const f of shared) this.put(f);
    // whatever else is under the ClusterSet's folder is no longer generated
    this.tx.removeOthers(set.name, this.emitting.expected, this.emitting.kept);
    const record = this.records.get(set.file);
    this.entries[set.name] = manifestEntryOf(set, `${this.options.out}/..`, set.sources, engineFiles, this.emitting.folders, {
      ...(record && { record }),
      blobs: this.emitting.blobs,
    });
    this.definitionFiles.set(set.name, set.file);
  }

  /** A file of the ClusterSet being emitted: expected, recorded with its blob id, and put. */
  private put(f: OutputFile): void {
    this.emitting.expected.add(f.path);
    this.emitting.blobs.set(f.path, blobId(f.content));
    this.tx.put(f.path, f.content);
    this.files++;
  }

  /** a kept file's blob id: as the previous run recorded it, or read (an older manifest.json has none) */
  private keptBlob(path: string): string {
    const slash = path.indexOf('/');
    return this.emitting.before?.blobs?.[path.slice(slash + 1)] ?? blobId(this.tx.read(path) ?? '');
  }

  finish(diagnostics: Diagnostic[], own: ValidatedRevision['own'] | undefined): OutputSinkResult | undefined {
    const { tx } = this;
    this.putUnits();
    if (this.options.full) tx.removeTopLevelExcept(new Set([...Object.keys(this.entries), SHARED_ROOT, MANIFEST]));
    const manifest = manifestFile(withoutMentioned(this.entries, this.definitionFiles, diagnostics, own));
    tx.put(manifest.path, manifest.content);
    this.files++;
    if (hasErrors(diagnostics)) {
      tx.abandon();
      return undefined;
    }
    tx.commit();
    const stale = tx.stale;
    const kept = (path: string) => this.keptFiles.has(path) || path.split('/').some((_, i, parts) => this.keptFolders.has(parts.slice(0, i).join('/')));
    return {
      files: this.files,
      clusters: this.clusters,
      built: this.built,
      changed: tx.changes,
      written: tx.writtenFiles,
      removed: tx.removedFiles,
      stale,
      keptStale: stale.some((s) => kept(s.slice(0, s.lastIndexOf(' (')))),
      irregular: tx.irregular,
    };
  }

  /**
   * Shared units: every unit some ClusterSet lists; one the output holds as this compiler wrote it,
   * or that only kept bundles list, stays as it is.
   */
  private putUnits(): void {
    const { tx } = this;
    const wanted = new Set(Object.values(this.entries).flatMap((e) => e.shared));
    const written = new Map(this.units.map((u) => [u.dir, u.files]));
    const unitFiles = new Set<string>();
    for (const dir of [...wanted].sort()) {
      const unit = written.get(dir);
      if (!unit) {
        this.files += tx.countFiles(dir);
        continue;
      }
      for (const f of unit) {
        unitFiles.add(f.path);
        tx.put(f.path, f.content);
      }
      this.files += unit.length;
    }
    tx.removeOthers(
      SHARED_ROOT,
      unitFiles,
      [...wanted].filter((d) => !written.has(d)),
    );
  }

  abort(err: unknown): void {
    if (!this.tx.crashed(err)) this.tx.abandon();
  }
}

export interface OutputSink extends Sink<OutputSinkResult | undefined> {
  /** what the run validated, also when it then failed on the output */
  validated?: { readonly revisions: readonly ValidatedRevision[]; readonly diagnostics: Diagnostic[] };
  /** the output path cannot be a directory: nothing was compared or written */
  problem?: Diagnostic;
  /** with check: manifest.json as already read (compile-command.ts read the index from it) */
  recorded?: Partial<Manifest> | null;
}

function outputDirectoryProblem(out: string, action: string): Diagnostic | undefined {
  try {
    // a committed `dist` that is a link (to the runner's home, to /) would have the output written or read there (#48 item 2)
    if (lstatSync(out).isSymbolicLink())
      return fileSystemDiagnostic(out, action, 'it is a symbolic link', '--out names a folder of its own, not a link to one: replace the link by a folder');
    if (!statSync(out).isDirectory()) return fileSystemDiagnostic(out, action, 'not a directory', '--out names the directory that holds the bundles');
  } catch (err) {
    if (errnoCode(err) !== 'ENOENT') return fileSystemDiagnostic(out, action, err);
  }
  return undefined;
}

function readManifest(tx: OutputTransaction): Manifest {
  const text = tx.read(MANIFEST);
  if (text === undefined) return { generator: 'antrea-clusterset', clusterSets: {} };
  try {
    return manifestOf(JSON.parse(text) as Partial<Manifest>);
  } catch {
    return { generator: 'antrea-clusterset', clusterSets: {} };
  }
}

function manifestOf(m: Partial<Manifest> | null): Manifest {
  if (typeof m !== 'object' || m === null) return { generator: 'antrea-clusterset', clusterSets: {} };
  // manifest.json is the output's, so untrusted: an entry of another shape is no record (its ClusterSet is built)
  const recorded: unknown = m.clusterSets;
  const sets = typeof recorded === 'object' && recorded !== null ? recorded : {};
  const clusterSets = Object.fromEntries(Object.entries(sets).filter((kv): kv is [string, ManifestEntry] => wellFormed(kv[1])));
  return { generator: 'antrea-clusterset', ...(typeof m.compiler === 'string' && { compiler: m.compiler }), clusterSets };
}

/** An entry of the shape manifestEntryOf writes, as far as a synth reads it. */
function wellFormed(e: unknown): e is ManifestEntry {
  const entry = e as Partial<Record<keyof ManifestEntry, unknown>> | null;
  const strings = (v: unknown) => Array.isArray(v) && v.every((s) => typeof s === 'string');
  const cluster = (c: Partial<Record<string, unknown>> | null) =>
    typeof c === 'object' &&
    c !== null &&
    typeof c.clusterID === 'string' &&
    typeof c.role === 'string' &&
    typeof c.inputs === 'string' &&
    (c.engines === undefined || typeof c.engines === 'string') &&
    (c.files === undefined || Number.isInteger(c.files)) &&
    (c.units === undefined || (Array.isArray(c.units) && c.units.every((u) => Number.isInteger(u))));
  const blobs = entry?.blobs;
  return (
    typeof entry === 'object' &&
    entry !== null &&
    typeof entry.source === 'string' &&
    strings(entry.shared) &&
    Array.isArray(entry.clusters) &&
    entry.clusters.every(cluster) &&
    (blobs === undefined ||
      (typeof blobs === 'object' && blobs !== null && !Array.isArray(blobs) && Object.values(blobs).every((id) => typeof id === 'string')))
  );
}
