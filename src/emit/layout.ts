import { createHash } from 'node:crypto';
import { relative, resolve, sep } from 'node:path';
import type { Diagnostic } from '../diagnostics/diagnostic';
import { LAYER_DIRECTORIES, layerDirectoryOf } from '../synth/delivery/layer-paths';
import { layerIndex } from '../synth/layers';
import type { KubeObject } from '../synth/kube-object';
import type { Bundle, ClusterSetOutput } from '../synth/synth-clusterset';
import { checkObjects } from './check-output';
import { canonical, toYaml } from './serialize';

/** A file to write, relative to the output directory. */
export interface OutputFile {
  readonly path: string;
  readonly content: string;
}

/** `<Kind>.<name>.yaml`, or `<Kind>.<namespace>.<name>.yaml` for namespaced objects. */
export function fileNameOf(o: KubeObject): string {
  const parts = [o.kind, o.metadata.namespace, o.metadata.name].filter(Boolean) as string[];
  return `${parts.join('.').replace(/[^A-Za-z0-9._-]/g, '_')}.yaml`;
}

/** Apply order, then a stable order by name: the kustomization lists files this way. */
export function sortObjects(objects: readonly KubeObject[]): KubeObject[] {
  return [...objects].sort(
    (a, b) =>
      layerIndex(a) - layerIndex(b) ||
      cmp(a.kind, b.kind) ||
      cmp(a.metadata.namespace ?? '', b.metadata.namespace ?? '') ||
      cmp(a.metadata.name, b.metadata.name),
  );
}

const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * A fleet repeats most objects verbatim (RBAC, APIServices, CRDs): each distinct object is
 * serialized and schema-checked once per run, keyed by its canonical JSON.
 */
/** Frozen values never change: their YAML (checked once) is shared by every run of the process. */
const frozenYaml = new WeakMap<object, string>();

export class EmitCache {
  private readonly byValue = frozenYaml;
  private readonly byJson = new Map<string, string>();
  private readonly ids = new WeakMap<object, number>();
  private readonly crdSets = new Map<string, CrdSet>();
  private nextId = 0;

  /** @param limit distinct non-shared objects remembered; beyond it the memory is dropped (bounded for any fleet) */
  constructor(private readonly limit = 4096) {}

  /** The YAML of an object, and whether this exact content was seen (and schema-checked) before. */
  yamlOf(o: KubeObject): { yaml: string; seen: boolean } {
    const shared = this.byValue.get(o);
    if (shared !== undefined) return { yaml: shared, seen: true };
    const json = JSON.stringify(canonical(o));
    let yaml = this.byJson.get(json);
    const seen = yaml !== undefined;
    if (yaml === undefined) {
      yaml = toYaml(o);
      if (this.byJson.size >= this.limit) this.byJson.clear();
      this.byJson.set(json, yaml);
    }
    if (Object.isFrozen(o)) this.byValue.set(o, yaml);
    return { yaml, seen };
  }

  /** The shared CRD set holding exactly these CRDs, built (and checked) once per run. */
  crdSet(output: LayoutContext, crds: readonly KubeObject[], diagnostics: Diagnostic[] = []): CrdSet {
    const key = `${output.release.version}\0${crds.map((o) => this.idOf(o)).join(',')}`;
    let set = this.crdSets.get(key);
    if (!set) {
      const { files, paths } = emitObjects(output, `${CRD_ROOT}/${output.release.version}`, '', crds, diagnostics, this);
      const hash = createHash('sha256');
      for (const f of files) hash.update(f.path).update('\0').update(f.content).update('\0');
      const dir = `${CRD_ROOT}/${output.release.version}/${hash.digest('hex').slice(0, 12)}`;
      set = {
        dir,
        files: [...files.map((f) => ({ path: `${dir}${f.path}`, content: f.content })), { path: `${dir}/kustomization.yaml`, content: toYaml(kustomization(paths)) }],
      };
      this.crdSets.set(key, set);
    }
    return set;
  }

  crdSetDir(output: LayoutContext, crds: readonly KubeObject[]): string {
    return this.crdSet(output, crds).dir;
  }

  /** Shared frozen objects by identity; anything else by content. */
  private idOf(o: KubeObject): string {
    if (!Object.isFrozen(o)) return JSON.stringify(canonical(o));
    let id = this.ids.get(o);
    if (id === undefined) this.ids.set(o, (id = this.nextId++));
    return String(id);
  }
}

/** What a ClusterSet's files are laid out from (an eager output or a lazily built one). */
export type LayoutContext = Pick<ClusterSetOutput, 'name' | 'file' | 'release'>;

/**
 * A release's CRDs for one role, once in the output: `_crds/<release>/<hash>/`, a kustomize base
 * that every bundle needing exactly these CRDs lists from its first layer. The folder is named by
 * a hash of its files, so a changed CRD is a new folder and a bundle never points at stale content.
 */
export interface CrdSet {
  /** relative to the output directory, e.g. `_crds/v2.7.0/3f1c2b9a0d4e` */
  readonly dir: string;
  readonly files: readonly OutputFile[];
}

export const CRD_ROOT = '_crds';

/** Every file of one definition's output, CRD sets included, checked; diagnostics for any self-check failure. */
export function layoutClusterSet(output: ClusterSetOutput, diagnostics: Diagnostic[], cache = new EmitCache()): OutputFile[] {
  const files: OutputFile[] = [];
  const sets = new Map<string, CrdSet>();
  for (const bundle of output.bundles) {
    const laid = layoutBundle(output, bundle, diagnostics, cache);
    files.push(...laid.files);
    sets.set(laid.crds.dir, laid.crds);
  }
  files.push(...layoutShared(output, diagnostics, cache));
  for (const set of [...sets.values()].sort((a, b) => cmp(a.dir, b.dir))) files.push(...set.files);
  return files;
}

/** One bundle's files (`<clusterset>/<clusterID>/…`) and the CRD set it lists. */
export function layoutBundle(output: LayoutContext, bundle: Bundle, diagnostics: Diagnostic[], cache: EmitCache): { files: OutputFile[]; crds: CrdSet } {
  const dir = `${output.name}/${bundle.clusterID}`;
  const crdObjects = bundle.objects.filter((o) => o.kind === 'CustomResourceDefinition');
  const crds = cache.crdSet(output, crdObjects, diagnostics);
  const objects = bundle.objects.filter((o) => o.kind !== 'CustomResourceDefinition');
  // a sub-kustomization per apply layer (one Flux Kustomization each); the root lists them all
  const { files, paths } = emitObjects(output, `bundle ${dir}`, dir, objects, diagnostics, cache, layerDirectoryOf);
  for (const [i, layer] of LAYER_DIRECTORIES.entries()) {
    const names = paths.filter((p) => p.startsWith(`${layer}/`)).map((p) => p.slice(layer.length + 1));
    // the CRDs come first, from the shared set: `../../../_crds/…` (a base may lie outside the root)
    if (i === 0 && crdObjects.length > 0) names.unshift(`../../../${crds.dir}`);
    files.push({ path: `${dir}/${layer}/kustomization.yaml`, content: toYaml(kustomization(names)) });
  }
  files.push({ path: `${dir}/kustomization.yaml`, content: toYaml(kustomization(LAYER_DIRECTORIES)) });
  return { files, crds };
}

/** The files beside the bundles: Argo CD and Flux objects, and the notes. */
export function layoutShared(output: LayoutContext & Pick<ClusterSetOutput, 'engines' | 'notes'>, diagnostics: Diagnostic[], cache: EmitCache): OutputFile[] {
  const files: OutputFile[] = [];
  for (const [folder, objects] of Object.entries(output.engines).sort(([a], [b]) => cmp(a, b))) {
    files.push(...emitObjects(output, `${output.name}/${folder}`, `${output.name}/${folder}`, objects, diagnostics, cache).files);
  }
  if (output.notes) files.push({ path: `${output.name}/README.md`, content: output.notes });
  return files;
}

function emitObjects(output: LayoutContext, where: string, dir: string, objects: readonly KubeObject[], diagnostics: Diagnostic[], cache: EmitCache, subdirOf?: (o: KubeObject) => string): { files: OutputFile[]; paths: string[] } {
  const sorted = sortObjects(objects);
  const rendered = sorted.map((o) => cache.yamlOf(o));
  // content seen earlier in this run has already passed its schema
  checkObjects(output.file, where, sorted, diagnostics, rendered.map((r) => r.seen), output.release);
  const paths = sorted.map((o) => (subdirOf ? `${subdirOf(o)}/${fileNameOf(o)}` : fileNameOf(o)));
  return { files: sorted.map((_, i) => ({ path: `${dir}/${paths[i]}`, content: rendered[i]!.yaml })), paths };
}

/** A plain kustomization, valid for `kubectl apply -k` and for Argo CD and Flux. */
function kustomization(resources: readonly string[]) {
  return { apiVersion: 'kustomize.config.k8s.io/v1beta1', kind: 'Kustomization', resources };
}

/** What manifest.json records of one ClusterSet. */
export interface ManifestEntry {
  /** the definition, relative to the output directory's parent (normally the repository root) */
  readonly source: string;
  /** the CRD sets its bundles list */
  readonly crds: readonly string[];
  /** `inputs`: the hash of what the bundle was built from (an incremental synth skips a bundle whose hash is unchanged) */
  readonly clusters: readonly { clusterID: string; role: string; inputs: string }[];
}

export interface Manifest {
  readonly generator: 'antrea-clusterset';
  readonly clusterSets: Readonly<Record<string, ManifestEntry>>;
}

export const MANIFEST = 'manifest.json';

/** dist/manifest.json: which definition produced which folder; also marks the folder as ours. */
export function manifestFile(entries: Readonly<Record<string, ManifestEntry>>): OutputFile {
  const clusterSets = Object.fromEntries(Object.keys(entries).sort(cmp).map((name) => [name, entries[name]]));
  return { path: MANIFEST, content: `${JSON.stringify({ generator: 'antrea-clusterset', clusterSets }, null, 2)}\n` };
}

/** The manifest entry of an eagerly built ClusterSet, with its source relative to `root`. */
export function manifestEntry(output: ClusterSetOutput, root: string, cache: EmitCache): ManifestEntry {
  return {
    source: sourcePath(output.file, root),
    crds: [...new Set(output.bundles.map((b) => cache.crdSetDir(output, b.objects.filter((o) => o.kind === 'CustomResourceDefinition'))))].sort(cmp),
    clusters: output.bundles.map((b) => ({ clusterID: b.clusterID, role: b.role, inputs: b.inputs })),
  };
}

/** A definition's path as manifest.json records it: relative to `root`, with forward slashes. */
export function sourcePath(file: string, root: string): string {
  return relative(resolve(root), resolve(file)).split(sep).join('/');
}
