import { COMPILER } from '../compiler-version';
import type { Diagnostic } from '../diagnostics/diagnostic';
import type { Bundle, ClusterSetOutput } from '../synth/synth-clusterset';
import { createHash } from 'node:crypto';
import { relative, resolve, sep } from 'node:path';
import type { ClusterEngineFiles, OutputFile } from '../layout/layout';

const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** What manifest.json records of one ClusterSet. */
export interface ManifestEntry {
  /** the definition, relative to the output directory's parent (normally the repository root) */
  readonly source: string;
  /** the definition's text hash and the facts the rules across definitions read, when it has no diagnostic (pipeline/definition-index.ts) */
  readonly definition?: DefinitionRecord;
  /** the shared units its bundles list */
  readonly shared: readonly string[];
  /**
   * `inputs`: the hash of what the bundle was built from (an incremental synth skips a bundle whose hash is unchanged);
   * `engines`: the hash of what the cluster's Argo CD and Flux objects are built from (their files are kept while it is unchanged);
   * `files` and `units`: how many files the bundle's folder holds and which of `shared` (indexes) its layers list,
   * so keeping a bundle reads nothing of it
   */
  readonly clusters: readonly ManifestCluster[];
  /**
   * every file of its folder (relative to it) and its git blob id, shortened (output-blobs.ts), a
   * bundle's folder (`<clusterID>/`) as one digest of its files (blobRecord): what `synth --check` compares without building
   */
  readonly blobs?: Readonly<Record<string, string>>;
}

/** What manifest.json records of a definition without diagnostics: the index of pipeline/definition-index.ts. */
export interface DefinitionRecord {
  /** sha256 (hex, 32 characters) of the definition's text */
  readonly sha256: string;
  /** the definition's engines can build its delivery objects (canBuildDelivery) */
  readonly delivered: boolean;
  /** each cluster's identities: its ID and its delivery destinations (cluster-in-two-definitions) */
  readonly identities: readonly string[];
  /** the warnings the definition gives on its own, as its diagnostics were but with empty file names (it is `source`) */
  readonly warnings?: readonly Diagnostic[];
}

export interface ManifestCluster {
  readonly clusterID: string;
  readonly role: string;
  readonly inputs: string;
  readonly engines?: string;
  readonly files?: number;
  readonly units?: readonly number[];
}

/** What a bundle's folder holds, for manifest.json. */
export interface BundleFiles {
  readonly files: number;
  readonly units: readonly string[];
}

export interface Manifest {
  readonly generator: 'antrea-clusterset';
  /** the compiler that wrote the output (name@version): shared units it wrote are trusted by the same compiler only */
  readonly compiler?: string;
  readonly clusterSets: Readonly<Record<string, ManifestEntry>>;
}

export const MANIFEST = 'manifest.json';

/** dist/manifest.json: which definition produced which folder; also marks the folder as ours. */
export function manifestFile(entries: Readonly<Record<string, ManifestEntry>>): OutputFile {
  const clusterSets = Object.fromEntries(
    Object.keys(entries)
      .sort(cmp)
      .map((name) => [name, entries[name]]),
  );
  return { path: MANIFEST, content: `${JSON.stringify({ generator: 'antrea-clusterset', compiler: COMPILER, clusterSets }, null, 2)}\n` };
}

/** A ClusterSet's entry: its clusters with role, input hash, engine hash, file count and shared units. */
export function manifestEntryOf(
  output: Pick<ClusterSetOutput, 'file' | 'name'>,
  root: string,
  bundles: readonly Pick<Bundle, 'clusterID' | 'role' | 'inputs'>[],
  engines: ReadonlyMap<string, ClusterEngineFiles>,
  folders: ReadonlyMap<string, BundleFiles>,
  extra: { readonly record?: DefinitionRecord; readonly blobs?: ReadonlyMap<string, string> } = {},
): ManifestEntry {
  const shared = [...new Set([...folders.values()].flatMap((f) => f.units))].sort(cmp);
  const index = new Map(shared.map((u, i) => [u, i]));
  return {
    source: sourcePath(output.file, root),
    ...(extra.record && { definition: extra.record }),
    shared,
    clusters: bundles.map((b) => {
      const e = engines.get(b.clusterID);
      const f = folders.get(b.clusterID);
      return {
        clusterID: b.clusterID,
        role: b.role,
        inputs: b.inputs,
        ...(e && { engines: e.hash }),
        ...(f && { files: f.files, units: [...new Set(f.units)].map((u) => index.get(u)!).sort((x, y) => x - y) }),
      };
    }),
    ...(extra.blobs && { blobs: folderBlobs(output.name, extra.blobs, new Set(bundles.map((b) => b.clusterID))) }),
  };
}

/** The blob ids of a ClusterSet's files (paths of the output), relative to its folder (blobRecord). */
function folderBlobs(name: string, blobs: ReadonlyMap<string, string>, bundles: ReadonlySet<string>): Record<string, string> {
  const prefix = `${name}/`;
  const files: [string, string][] = [];
  for (const [path, id] of blobs) if (path.startsWith(prefix)) files.push([path.slice(prefix.length), id]);
  return blobRecord(files, bundles);
}

/**
 * What manifest.json records of a ClusterSet's files (paths relative to its folder): each file's
 * blob id, in path order, but a bundle's folder (`<clusterID>/`, one of `bundles`) as one digest of
 * its files' paths and ids (the fleet's manifest is a fifth of the size with per-file ids). A
 * `<clusterID>/` already in `files` is a kept folder's recorded digest: it stands for its files.
 * `synth --check` records the folders on disk the same way and compares (compile-command.ts).
 */
export function blobRecord(files: Iterable<readonly [string, string]>, bundles: ReadonlySet<string>): Record<string, string> {
  const out: [string, string][] = [];
  const inBundle = new Map<string, [string, string][]>();
  const digests = new Map<string, string>();
  for (const [rel, id] of files) {
    const slash = rel.indexOf('/');
    const folder = slash > 0 ? rel.slice(0, slash) : '';
    if (!bundles.has(folder)) out.push([rel, id]);
    else if (slash === rel.length - 1) digests.set(folder, id);
    else {
      let list = inBundle.get(folder);
      if (!list) inBundle.set(folder, (list = []));
      list.push([rel.slice(slash + 1), id]);
    }
  }
  for (const [folder, list] of inBundle) if (!digests.has(folder)) digests.set(folder, folderDigest(list));
  for (const [folder, digest] of digests) out.push([`${folder}/`, digest]);
  // the default sort compares UTF-16 code units, as cmp does, without a call per comparison
  const keys = out.map(([k]) => k).sort();
  const byKey = new Map(out);
  return Object.fromEntries(keys.map((k) => [k, byKey.get(k)!]));
}

/** One id for a folder's files: sha1 of each path and blob id, in path order, cut as a blob id is. */
function folderDigest(files: readonly (readonly [string, string])[]): string {
  const hash = createHash('sha1');
  for (const [rel, id] of [...files].sort((a, b) => cmp(a[0], b[0]))) hash.update(`${rel}\0${id}\n`);
  return hash.digest('hex').slice(0, 16);
}

/** How many files a recorded ClusterSet's folder holds: each file's id, and a bundle's digest for its `files`. */
export function recordedFiles(entry: ManifestEntry): number {
  const blobs = entry.blobs ?? {};
  const singles = Object.keys(blobs).filter((k) => !k.endsWith('/')).length;
  return entry.clusters.reduce((n, c) => n + (typeof blobs[`${c.clusterID}/`] === 'string' ? (c.files ?? 0) : 0), singles);
}

/** A definition's path as manifest.json records it: relative to `root`, with forward slashes. */
export function sourcePath(file: string, root: string): string {
  return relative(resolve(root), resolve(file)).split(sep).join('/');
}
