import { hasErrors, type Diagnostic } from '../diagnostics/diagnostic';
import type { OutputFile } from '../layout/layout';
import { manifestEntryOf, manifestFile, type BundleFiles, type DefinitionRecord, type ManifestEntry } from '../output/manifest';
import { definitionRecords, withoutMentioned } from './definition-index';
import { blobId } from '../output/output-blobs';
import type { Bundle, ClusterSetOutput } from '../synth/synth-clusterset';
import type { Sink } from './pipeline';

/** One revision built in memory. */
export interface InMemory {
  /** each ClusterSet with the bundles and engine objects built (all of them, unless the sink kept some) */
  readonly outputs: readonly ClusterSetOutput[];
  /** every file synth would write, in path order, manifest.json last; empty when any error was found */
  readonly files: readonly OutputFile[];
}

/**
 * The sink of compile(), `plan` (plan-sink.ts keeps what both revisions share) and the construct
 * library: each revision's outputs and files in memory. manifest.json records sources relative
 * to the parent of `outDir`.
 */
export function memorySink(outDir = 'dist'): Sink<InMemory[]> {
  const root = `${outDir}/..`;
  const revisions: { outputs: ClusterSetOutput[]; byPath: Map<string, OutputFile>; entries: Record<string, ManifestEntry> }[] = [];
  let bundles: Bundle[] = [];
  let folders = new Map<string, BundleFiles>();
  let blobs = new Map<string, string>();
  const definitionFiles = new Map<string, string>();
  let records: ReadonlyMap<string, DefinitionRecord> = new Map();
  let own: readonly Diagnostic[] = [];
  const revision = (r: number) => (revisions[r] ??= { outputs: [], byPath: new Map(), entries: {} });
  return {
    begin: (checked) => {
      checked.forEach((_, r) => revision(r));
      // one revision's records: the manifest of compile(); plan's revisions write none
      records = definitionRecords(checked.length === 1 ? checked[0] : undefined);
      own = checked.length === 1 ? checked[0]!.own : [];
    },
    clusterSet: () => {
      bundles = [];
      folders = new Map();
      blobs = new Map();
    },
    bundle: (r, _set, bundle, laid) => {
      bundles.push(bundle);
      folders.set(bundle.clusterID, { files: laid.files.length, units: laid.units.map((u) => u.dir) });
      for (const f of laid.files) {
        revision(r).byPath.set(f.path, f);
        blobs.set(f.path, blobId(f.content));
      }
    },
    endClusterSet: (r, set, files, engineFiles, engines) => {
      const { sources, ...rest } = set;
      const into = revision(r);
      into.outputs.push({ ...rest, bundles, engines });
      for (const f of files) {
        into.byPath.set(f.path, f);
        blobs.set(f.path, blobId(f.content));
      }
      into.entries[set.name] = manifestEntryOf(set, root, sources, engineFiles, folders, {
        ...(records.get(set.file) && { record: records.get(set.file)! }),
        blobs,
      });
      definitionFiles.set(set.name, set.file);
    },
    units: (r, units) => {
      for (const u of units) for (const f of u.files) revision(r).byPath.set(f.path, f);
    },
    finish: (diagnostics) =>
      revisions.map(({ outputs, byPath, entries }) => {
        if (hasErrors(diagnostics)) return { outputs, files: [] };
        // shared units in path order, like every other file, wherever the ClusterSet that made them came
        const files = [...byPath.values()].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
        files.push(manifestFile(withoutMentioned(entries, definitionFiles, diagnostics, own)));
        return { outputs, files };
      }),
  };
}
