import { hasErrors, type Diagnostic } from '../diagnostics/diagnostic';
import { scanOutputFiles } from '../secrets/scan-secrets';
import type { ParsedClusterSet } from '../model/parse-clusterset';
import { clusterSetSources, type ClusterSetSources } from '../synth/synth-clusterset';
import { LAYER_DIRECTORIES } from '../synth/delivery/layer-paths';
import { byFolder, type EngineObject } from '../synth/delivery';
import { EmitCache, engineFilesByCluster, layoutBundle, layoutShared, SHARED_ROOT, unitsListed, type OutputFile } from './layout';
import { manifestEntryOf, MANIFEST, manifestFile, type BundleFiles, type Manifest, type ManifestEntry } from './manifest';
import { COMPILER } from '../compiler-version';
import { OutputError } from './output-error';
import { OutputTransaction } from './output-transaction';
import type { FileSystemOps } from './file-system-ops';
export { recoverOutput } from './output-transaction';
export { SimulatedCrash, type FileSystemOps } from './file-system-ops';

export interface EmitOptions {
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

export interface EmitResult {
  /** files of the output (written, unchanged or kept) */
  readonly files: number;
  readonly clusters: number;
  /** bundles built in this run (the others were unchanged and kept) */
  readonly built: number;
  /** files written, replaced or removed */
  readonly changed: number;
  /** with check: changed, missing and extra files */
  readonly stale: readonly string[];
}

/**
 * Synth and emit, one bundle at a time, straight into a transaction on the output directory:
 * memory holds one bundle and the paths of the rest, not the fleet. A bundle whose inputs hash
 * equals the one manifest.json recorded (and whose folder is there) is neither built nor
 * touched; every other file is compared with the output and written only when its bytes differ.
 * Self-check errors abandon the transaction: nothing is written from a broken input.
 */
export async function emitToDirectory(parsed: readonly ParsedClusterSet[], options: EmitOptions, diagnostics: Diagnostic[]): Promise<EmitResult | undefined> {
  const tx = new OutputTransaction(options.out, { check: options.check === true, ...(options.fs && { fs: options.fs }) });
  try {
    tx.begin();
  } catch (err) {
    tx.crashed(err);
    throw err;
  }
  try {
    const result = await emitAll(tx, parsed, options, diagnostics);
    if (hasErrors(diagnostics)) {
      tx.abandon();
      return undefined;
    }
    tx.commit();
    return { ...result, changed: tx.changes, stale: tx.stale };
  } catch (err) {
    if (!tx.crashed(err)) tx.abandon();
    throw err;
  }
}

/** Bundle files scanned for secrets at once: a bound on memory, and each scan's fixed cost paid rarely. */
const SCAN_BATCH_BYTES = 1 << 20;

async function emitAll(tx: OutputTransaction, parsed: readonly ParsedClusterSet[], options: EmitOptions, diagnostics: Diagnostic[]) {
  const previous = readManifest(tx);
  // a shared unit the previous run of this compiler recorded, and whose folder is there, is named
  // by its bytes: a bundle that lists it needs neither its checks nor its writes
  const recordedUnits = new Set(
    previous.compiler === COMPILER && !options.check && !options.rebuild ? Object.values(previous.clusterSets).flatMap((e) => e.shared ?? []) : [],
  );
  const cache = new EmitCache(undefined, (dir) => recordedUnits.has(dir) && tx.exists(`${dir}/kustomization.yaml`));
  const root = `${options.out}/..`;
  const entries: Record<string, ManifestEntry> = options.full ? {} : { ...previous.clusterSets };
  const units = new Map<string, readonly OutputFile[]>();
  let files = 0;
  let clusters = 0;
  let built = 0;

  for (const p of parsed) {
    const set: ClusterSetSources = clusterSetSources(p);
    const before = previous.clusterSets[set.name];
    const recorded = new Map((before?.clusters ?? []).map((c) => [c.clusterID, c]));
    const expected = new Set<string>();
    const kept: string[] = [];
    const folders = new Map<string, BundleFiles>();
    const scan: OutputFile[] = [];
    let scanBytes = 0;
    for (const source of set.sources) {
      clusters++;
      const dir = `${set.name}/${source.clusterID}`;
      const old = recorded.get(source.clusterID);
      if (!options.check && !options.rebuild && old?.inputs === source.inputs && old.role === source.role && tx.exists(`${dir}/kustomization.yaml`)) {
        // unchanged inputs: the folder stays as the run that recorded them wrote it, with the units it lists
        // (recorded in manifest.json; read back from its layers when an older manifest lacks them)
        const units = old.units?.map((i) => before!.shared[i]).filter((u) => u !== undefined);
        const folder: BundleFiles =
          units !== undefined && old.files !== undefined
            ? { files: old.files, units }
            : { files: tx.countFiles(dir), units: unitsListed(LAYER_DIRECTORIES.map((l) => tx.read(`${dir}/${l}/kustomization.yaml`) ?? '')) };
        folders.set(source.clusterID, folder);
        kept.push(dir);
        files += folder.files;
        continue;
      }
      const laid = layoutBundle(set, source.synth(), diagnostics, cache);
      folders.set(source.clusterID, { files: laid.files.length, units: laid.units.map((u) => u.dir) });
      built++;
      // a secret never reaches the output, whatever route it took (shared units are scanned once,
      // below); bundles are scanned in batches, as each scan has a fixed cost, and all before the commit
      scan.push(...laid.files);
      scanBytes += laid.files.reduce((n, f) => n + f.content.length, 0);
      if (scanBytes >= SCAN_BATCH_BYTES) {
        await scanOutputFiles(set.file, scan.splice(0), diagnostics);
        scanBytes = 0;
      }
      for (const u of laid.units) if (!u.inOutput) units.set(u.dir, u.files);
      for (const f of laid.files) {
        expected.add(f.path);
        tx.put(f.path, f.content);
      }
      files += laid.files.length;
    }
    await scanOutputFiles(set.file, scan, diagnostics);
    // engine files of a cluster whose delivery inputs hash as recorded stay as they are
    const engineFiles = engineFilesByCluster(set);
    const changedEngines: EngineObject[] = [];
    for (const [id, e] of engineFiles) {
      if (!options.check && !options.rebuild && recorded.get(id)?.engines === e.hash && e.paths.every((path) => tx.listed(path))) {
        for (const path of e.paths) expected.add(path);
        files += e.paths.length;
      } else changedEngines.push(...e.objects);
    }
    const engines = byFolder(set.delivery.clusterSet, changedEngines);
    const sharedFiles = layoutShared(set, engines, diagnostics, cache);
    await scanOutputFiles(set.file, sharedFiles, diagnostics);
    for (const f of sharedFiles) {
      expected.add(f.path);
      tx.put(f.path, f.content);
      files++;
    }
    // whatever else is under the ClusterSet's folder is no longer generated
    tx.removeOthers(set.name, expected, kept);
    entries[set.name] = manifestEntryOf(set, root, set.sources, engineFiles, folders);
  }

  // shared units: every unit some ClusterSet lists; one the output holds as this compiler wrote it,
  // or that only kept bundles list, stays as it is
  const wanted = new Set(Object.values(entries).flatMap((e) => e.shared ?? []));
  const unitFiles = new Set<string>();
  for (const dir of [...wanted].sort()) {
    const written = units.get(dir);
    if (!written) {
      files += tx.countFiles(dir);
      continue;
    }
    await scanOutputFiles(parsed[0]?.source.file ?? options.out, written, diagnostics);
    for (const f of written) {
      unitFiles.add(f.path);
      tx.put(f.path, f.content);
    }
    files += written.length;
  }
  tx.removeOthers(
    SHARED_ROOT,
    unitFiles,
    [...wanted].filter((d) => !units.has(d)),
  );

  if (options.full) tx.removeTopLevelExcept(new Set([...Object.keys(entries), SHARED_ROOT, MANIFEST]));
  const manifest = manifestFile(entries);
  tx.put(manifest.path, manifest.content);
  files++;
  return { files, clusters, built };
}

function readManifest(tx: OutputTransaction): Manifest {
  const text = tx.read(MANIFEST);
  if (text === undefined) return { generator: 'antrea-clusterset', clusterSets: {} };
  try {
    const m = JSON.parse(text) as Partial<Manifest>;
    return { generator: 'antrea-clusterset', ...(typeof m.compiler === 'string' && { compiler: m.compiler }), clusterSets: m.clusterSets ?? {} };
  } catch {
    return { generator: 'antrea-clusterset', clusterSets: {} };
  }
}

export { OutputError };
