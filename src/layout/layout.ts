import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import type { Diagnostic } from '../diagnostics/diagnostic';
import { EXPORTS_DIRECTORY, LABELLED_UNIT_DIRECTORIES, LAYER_DIRECTORIES, layerDirectoryOf } from '../delivery/layer-paths';
import { layerIndex } from '../delivery/layers';
import type { KubeObject } from '../kube/kube-object';
import type { Bundle, ClusterSetOutput } from '../synth/synth-clusterset';
import { helmChartVersion } from '../antrea/workloads/helm-values';
import { HELM_VALUES_FILE } from '../synth/parts/antrea-core';
import type { EngineObject } from '../delivery';
import { checkObjects } from './check-output';
import { isShared } from './shared-units';
import { fastYaml } from '../yaml/fast-yaml';
import { canonical, toYaml, yamlV2 } from '../kube/serialize';
import { MAX_OBJECT_BYTES } from '../kube/object-limits';

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
 * serialized once per run, keyed by its canonical JSON, and schema-checked once per process and
 * release (the same bytes may be valid at one release and not at another).
 */
/** Frozen values never change: their YAML is shared by every run of the process. */
const frozenYaml = new WeakMap<object, string>();
/** The releases whose schemas a frozen value has passed, for every run of the process. */
const frozenChecked = new WeakMap<object, Set<string>>();
/**
 * By release, the YAML of the objects that passed its schemas, for every run of the process: the
 * same bytes pass the same schemas, and a process runs the pipeline again over the same
 * definitions (plan's two revisions, `drift` and `plan --live` in a test worker).
 */
const passedYaml = new Map<string, Set<string>>();

export class LayoutCache {
  private readonly byValue = frozenYaml;
  private readonly byJson = new Map<string, string>();
  private readonly ids = new WeakMap<object, number>();
  private readonly units = new Map<string, SharedUnit>();
  private nextId = 0;
  private readonly yamlIds = new Map<string, number>();
  /** by release: the YAML of every object that passed that release's schemas in this process */
  private readonly checked = passedYaml;

  /**
   * @param limit distinct non-shared objects remembered; beyond it the memory is dropped (bounded for any fleet)
   * @param trusted whether the output holds a shared unit's folder as this compiler wrote it (an incremental synth)
   */
  constructor(
    private readonly limit = 4096,
    private readonly trusted: (dir: string) => boolean = () => false,
  ) {}

  /** The YAML of an object: frozen values by identity, anything else by content. */
  yamlOf(o: KubeObject): string {
    const shared = this.byValue.get(o);
    if (shared !== undefined) return shared;
    // the fast writer costs less than the JSON key of a cache; yaml v2 is worth caching
    let yaml = fastYaml(o);
    if (yaml === undefined) {
      const sorted = canonical(o);
      const json = JSON.stringify(sorted);
      yaml = this.byJson.get(json);
      if (yaml === undefined) {
        yaml = yamlV2(sorted);
        if (this.byJson.size >= this.limit) this.byJson.clear();
        this.byJson.set(json, yaml);
      }
    }
    if (Object.isFrozen(o)) this.byValue.set(o, yaml);
    return yaml;
  }

  /** Whether this content has passed the schemas of this release before, in this process. */
  hasPassed(release: string, o: KubeObject, yaml: string): boolean {
    if (Object.isFrozen(o)) return frozenChecked.get(o)?.has(release) ?? false;
    return this.checked.get(release)?.has(yaml) ?? false;
  }

  /** Records that this content passed the schemas of this release. */
  passed(release: string, o: KubeObject, yaml: string): void {
    if (Object.isFrozen(o)) {
      const releases = frozenChecked.get(o) ?? new Set<string>();
      frozenChecked.set(o, releases.add(release));
      return;
    }
    let set = this.checked.get(release);
    if (!set) this.checked.set(release, (set = new Set()));
    if (set.size >= this.limit) set.clear();
    set.add(yaml);
  }

  /**
   * The shared unit holding exactly these objects of one layer, built (and checked) once per
   * run: `_shared/<release>/<layer>/<hash of its files>/`. A unit the output already holds as
   * this compiler wrote it (`trusted`) is not checked again: its folder is named by its bytes.
   */
  sharedUnit(output: LayoutContext, layer: string, objects: readonly KubeObject[], diagnostics: Diagnostic[] = []): SharedUnit {
    const key = `${output.release.version}\0${layer}\0${objects.map((o) => this.idOf(o)).join(',')}`;
    let unit = this.units.get(key);
    if (!unit) {
      const serialized = serializeObjects('', objects, this);
      const dir = `${SHARED_ROOT}/${output.release.version}/${layer}/${unitHash(serialized.files)}`;
      const inOutput = this.trusted(dir);
      if (!inOutput) checkSerialized(output, `${SHARED_ROOT}/${output.release.version}/${layer}`, serialized, diagnostics, this);
      unit = {
        dir,
        files: [
          ...serialized.files.map((f) => ({ path: `${dir}${f.path}`, content: f.content })),
          { path: `${dir}/kustomization.yaml`, content: toYaml(kustomization(serialized.paths)) },
        ],
        inOutput,
      };
      if (this.units.size >= this.limit) this.units.clear();
      this.units.set(key, unit);
    }
    return unit;
  }

  /** Shared frozen objects by identity; anything else by content (its YAML, cached). */
  private idOf(o: KubeObject): string {
    if (!Object.isFrozen(o)) {
      // identical content shares one YAML string (byJson), whose hash V8 computes once
      const yaml = this.yamlOf(o);
      let id = this.yamlIds.get(yaml);
      if (id === undefined) {
        if (this.yamlIds.size >= this.limit) this.yamlIds.clear();
        this.yamlIds.set(yaml, (id = this.nextId++));
      }
      return `y${id}`;
    }
    let id = this.ids.get(o);
    if (id === undefined) this.ids.set(o, (id = this.nextId++));
    return String(id);
  }
}

/** The name of a shared unit's folder: a hash of its files (paths from the folder, with a leading slash), in their kustomization's order. */
function unitHash(files: readonly OutputFile[]): string {
  const hash = createHash('sha256');
  for (const f of files) hash.update(f.path).update('\0').update(f.content).update('\0');
  return hash.digest('hex').slice(0, 12);
}

/**
 * Whether the output's folder `dir` (`_shared/<release>/<layer>/<hash>`) is the unit its name
 * says, read from disk without building it: exactly the files its kustomization.yaml lists, plus
 * that file as the compiler writes it, hashing to the folder's name. `synth --check` trusts a unit
 * only the ClusterSets it did not build list when this holds.
 */
export function unitOnDisk(out: string, dir: string): boolean {
  try {
    const folder = `${out}/${dir}`;
    const text = readFileSync(`${folder}/kustomization.yaml`, 'utf8');
    const resources = [...text.matchAll(/^ {2}- (\S+)$/gm)].map((m) => m[1]!);
    if (text !== toYaml(kustomization(resources))) return false;
    const entries = readdirSync(folder, { withFileTypes: true });
    if (entries.length !== resources.length + 1 || entries.some((e) => !e.isFile())) return false;
    const names = new Set(entries.map((e) => e.name));
    if (!resources.every((r) => names.has(r) && r !== 'kustomization.yaml' && !r.includes('/'))) return false;
    const files = resources.map((r) => ({ path: `/${r}`, content: readFileSync(`${folder}/${r}`, 'utf8') }));
    return dir.endsWith(`/${unitHash(files)}`);
  } catch {
    return false;
  }
}

/** What a ClusterSet's files are laid out from (an eager output or a lazily built one). */
export type LayoutContext = Pick<ClusterSetOutput, 'name' | 'file' | 'release'>;

/** A folder of objects several bundles list (see shared-units.ts). */
export interface SharedUnit {
  /** relative to the output directory, e.g. `_shared/v2.7.0/0-namespaces-crds/3f1c2b9a0d4e` */
  readonly dir: string;
  readonly files: readonly OutputFile[];
  /** the output holds this folder as this compiler wrote it: nothing of it is checked, scanned or written again */
  readonly inOutput?: boolean;
}

export const SHARED_ROOT = '_shared';

/** One bundle's own files (`<clusterset>/<clusterID>/…`) and the shared units its layers list. */
export function layoutBundle(
  output: LayoutContext,
  bundle: Bundle,
  diagnostics: Diagnostic[],
  cache: LayoutCache,
): { files: OutputFile[]; units: SharedUnit[] } {
  const dir = `${output.name}/${bundle.clusterID}`;
  const own: KubeObject[] = [];
  // the shared objects by layer directory, in bundle order (each object's directory found once, not once a layer)
  const sharedIn = new Map<string, KubeObject[]>();
  for (const o of bundle.objects) {
    if (!isShared(o)) own.push(o);
    else {
      const layer = layerDirectoryOf(o);
      (sharedIn.get(layer) ?? sharedIn.set(layer, []).get(layer)!).push(o);
    }
  }
  const units: SharedUnit[] = [];
  // a sub-kustomization per apply layer (one Flux Kustomization each); the root lists them all
  const { files, paths } = layoutObjects(output, `bundle ${dir}`, dir, own, diagnostics, cache, layerDirectoryOf);
  for (const layer of LAYER_DIRECTORIES) {
    const names = paths.filter((p) => p.startsWith(`${layer}/`)).map((p) => p.slice(layer.length + 1));
    const shared = sharedIn.get(layer) ?? [];
    if (shared.length > 0) {
      const unit = cache.sharedUnit(output, layer, sortObjects(shared), diagnostics);
      units.push(unit);
      // the shared objects first, from their folder (a base may lie outside the kustomization root)
      names.unshift(`../../../${unit.dir}`);
    }
    files.push({ path: `${dir}/${layer}/kustomization.yaml`, content: toYaml(kustomization(names)) });
  }
  // the verification and the Tier restart, after the layers and outside the root's list: each its own
  // Flux Kustomization and Argo CD Application (delivery/layer-paths.ts)
  for (const unit of LABELLED_UNIT_DIRECTORIES) {
    const names = paths.filter((p) => p.startsWith(`${unit}/`)).map((p) => p.slice(unit.length + 1));
    if (names.length > 0) files.push({ path: `${dir}/${unit}/kustomization.yaml`, content: toYaml(kustomization(names)) });
  }
  files.push({ path: `${dir}/kustomization.yaml`, content: toYaml(kustomization([...LAYER_DIRECTORIES])) });
  // the exports, per Namespace, outside the root's list: their own Flux Kustomizations and Argo CD Application
  const exportDirs = [...new Set(paths.filter((p) => p.startsWith(`${EXPORTS_DIRECTORY}/`)).map((p) => p.slice(0, p.lastIndexOf('/'))))].sort();
  for (const exportDir of exportDirs) {
    const names = paths.filter((p) => p.startsWith(`${exportDir}/`)).map((p) => p.slice(exportDir.length + 1));
    files.push({ path: `${dir}/${exportDir}/kustomization.yaml`, content: toYaml(kustomization(names)) });
  }
  if (exportDirs.length > 0)
    files.push({
      path: `${dir}/${EXPORTS_DIRECTORY}/kustomization.yaml`,
      content: toYaml(kustomization(exportDirs.map((d) => d.slice(EXPORTS_DIRECTORY.length + 1)))),
    });
  // beside the layers, never listed by a kustomization: Helm reads it, not kustomize
  if (bundle.helmValues)
    files.push({ path: `${dir}/${HELM_VALUES_FILE}`, content: `${HELM_VALUES_HEADER(output.release.version)}${toYaml(bundle.helmValues)}` });
  return { files, units };
}

const HELM_VALUES_HEADER = (version: string) =>
  `# Values for Antrea's Helm chart ${helmChartVersion(version)}: the settings this ClusterSet needs from the cluster's Antrea.\n# Generated by antrea-clusterset; see the ClusterSet's README.md for the helm command.\n`;

/** The shared units a bundle's layer kustomizations list (read back from the output for a kept bundle). */
export function unitsListed(kustomizations: readonly string[]): string[] {
  return kustomizations.flatMap((text) => [...text.matchAll(/^ {2}- \.\.\/\.\.\/\.\.\/(_shared\/\S+)$/gm)].map((m) => m[1]!));
}

/** The engine objects of one cluster (its Application, its Flux Kustomizations) and their files. */
export interface ClusterEngineFiles {
  /** the hash of what they are built from (ClusterDelivery.hash): equal hashes give equal files */
  readonly hash: string;
  readonly objects: readonly EngineObject[];
  readonly paths: readonly string[];
}

/** Each cluster's engine objects, built, with their paths; a cluster without any has no entry. */
export function engineFilesByCluster(output: Pick<ClusterSetOutput, 'name' | 'delivery'>): Map<string, ClusterEngineFiles> {
  const out = new Map<string, ClusterEngineFiles>();
  for (const c of output.delivery.clusters) {
    const objects = c.build();
    if (objects.length === 0) continue;
    out.set(c.clusterID, { hash: c.hash, objects, paths: objects.map(({ folder, object }) => `${output.name}/${folder}/${fileNameOf(object)}`) });
  }
  return out;
}

/** The files beside the bundles: the given engine objects (by folder) and the notes. */
export function layoutShared(
  output: LayoutContext & Pick<ClusterSetOutput, 'notes'>,
  engines: Readonly<Record<string, readonly KubeObject[]>>,
  diagnostics: Diagnostic[],
  cache: LayoutCache,
): OutputFile[] {
  const files: OutputFile[] = [];
  for (const [folder, objects] of Object.entries(engines).sort(([a], [b]) => cmp(a, b))) {
    files.push(...layoutObjects(output, `${output.name}/${folder}`, `${output.name}/${folder}`, objects, diagnostics, cache).files);
  }
  if (output.notes) files.push({ path: `${output.name}/README.md`, content: output.notes });
  return files;
}

function layoutObjects(
  output: LayoutContext,
  where: string,
  dir: string,
  objects: readonly KubeObject[],
  diagnostics: Diagnostic[],
  cache: LayoutCache,
  subdirOf?: (o: KubeObject) => string,
): { files: OutputFile[]; paths: string[] } {
  const serialized = serializeObjects(dir, objects, cache, subdirOf);
  checkSerialized(output, where, serialized, diagnostics, cache);
  return serialized;
}

interface Serialized {
  readonly sorted: readonly KubeObject[];
  readonly files: OutputFile[];
  readonly paths: string[];
}

/** Objects in file order, each with its YAML and its path (under `dir`, in its layer's folder with `subdirOf`). */
function serializeObjects(dir: string, objects: readonly KubeObject[], cache: LayoutCache, subdirOf?: (o: KubeObject) => string): Serialized {
  const sorted = sortObjects(objects);
  const paths = sorted.map((o) => (subdirOf ? `${subdirOf(o)}/${fileNameOf(o)}` : fileNameOf(o)));
  return { sorted, paths, files: sorted.map((o, i) => ({ path: `${dir}/${paths[i]!}`, content: cache.yamlOf(o) })) };
}

/** The self-checks of serialized objects: schemas (content that passed this release's earlier in the run is not checked again) and size. */
function checkSerialized(output: LayoutContext, where: string, { sorted, files }: Serialized, diagnostics: Diagnostic[], cache: LayoutCache): void {
  const yamls = files.map((f) => f.content);
  const version = output.release.version;
  const passed = checkObjects(
    output.file,
    where,
    sorted,
    diagnostics,
    sorted.map((o, i) => cache.hasPassed(version, o, yamls[i]!)),
    output.release,
  );
  sorted.forEach((o, i) => {
    if (passed[i]) cache.passed(version, o, yamls[i]!);
  });
  // etcd stores at most 1.5 MiB per object and the API server refuses larger requests; 1 MiB leaves room for status
  sorted.forEach((o, i) => {
    const size = Buffer.byteLength(yamls[i]!);
    if (size > MAX_OBJECT_BYTES) {
      diagnostics.push({
        code: 'yaml-limits',
        severity: 'error',
        message: `${where}: ${o.kind} ${o.metadata.namespace ? `${o.metadata.namespace}/` : ''}${o.metadata.name} would be ${size} bytes, more than the ${MAX_OBJECT_BYTES} an API server takes per object`,
        file: output.file,
        path: [],
        line: 1,
        column: 1,
        hint: 'values of the definition end up in it (agentConfig, controllerConfig, a policy): keep them small',
      });
    }
  });
}

/** A plain kustomization, valid for `kubectl apply -k` and for Argo CD and Flux. */
function kustomization(resources: readonly string[]) {
  return { apiVersion: 'kustomize.config.k8s.io/v1beta1', kind: 'Kustomization', resources };
}
