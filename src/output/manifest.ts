import { COMPILER } from '../compiler-version';
import type { Bundle, ClusterSetOutput } from '../synth/synth-clusterset';
import { engineFilesByCluster, unitsListed, type ClusterEngineFiles, type OutputFile } from '../check/layout';
import { MANIFEST, sourcePath, type DefinitionRecord } from './definition-index';
import { blobId } from './output-blobs';

const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** What manifest.json records of one ClusterSet. */
export interface ManifestEntry {
  /** the definition, relative to the output directory's parent (normally the repository root) */
  readonly source: string;
  /** the definition's text hash and the facts the rules across definitions read, when it has no diagnostic (definition-index.ts) */
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
  /** every file of its folder (relative to it) and its git blob id, shortened (output-blobs.ts): what `synth --check` compares without building */
  readonly blobs?: Readonly<Record<string, string>>;
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

export { MANIFEST };

/** dist/manifest.json: which definition produced which folder; also marks the folder as ours. */
export function manifestFile(entries: Readonly<Record<string, ManifestEntry>>): OutputFile {
  const clusterSets = Object.fromEntries(
    Object.keys(entries)
      .sort(cmp)
      .map((name) => [name, entries[name]]),
  );
  return { path: MANIFEST, content: `${JSON.stringify({ generator: 'antrea-clusterset', compiler: COMPILER, clusterSets }, null, 2)}\n` };
}

/** The manifest entry of a ClusterSet compiled in memory, from its laid-out files, with its source relative to `root`. */
export function manifestEntry(output: ClusterSetOutput, root: string, laid: readonly OutputFile[]): ManifestEntry {
  // one pass over the files, grouped by the folder under the ClusterSet's (a bundle's is its cluster ID)
  const byFolder = new Map<string, OutputFile[]>();
  for (const f of laid) {
    const [cs, folder] = f.path.split('/', 2);
    if (cs !== output.name || folder === undefined) continue;
    let list = byFolder.get(folder);
    if (!list) byFolder.set(folder, (list = []));
    list.push(f);
  }
  const folders = new Map<string, BundleFiles>();
  for (const b of output.bundles) {
    const own = byFolder.get(b.clusterID) ?? [];
    folders.set(b.clusterID, { files: own.length, units: unitsListed(own.filter((f) => f.path.endsWith('/kustomization.yaml')).map((f) => f.content)) });
  }
  const blobs = new Map(laid.filter((f) => f.path.startsWith(`${output.name}/`)).map((f) => [f.path, blobId(f.content)]));
  return manifestEntryOf(output, root, output.bundles, engineFilesByCluster(output), folders, { blobs });
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
    ...(extra.blobs && { blobs: folderBlobs(output.name, extra.blobs) }),
  };
}

/** The blob ids of a ClusterSet's files (paths of the output), relative to its folder and in path order. */
function folderBlobs(name: string, blobs: ReadonlyMap<string, string>): Record<string, string> {
  const prefix = `${name}/`;
  const paths = [...blobs.keys()].filter((p) => p.startsWith(prefix)).sort(cmp);
  return Object.fromEntries(paths.map((p) => [p.slice(prefix.length), blobs.get(p)!]));
}
