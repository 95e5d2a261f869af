import type { Diagnostic } from '../diagnostics/diagnostic';
import { LAYER_DIRECTORIES, layerDirectoryOf } from '../synth/delivery/layer-paths';
import { layerIndex } from '../synth/layers';
import type { KubeObject } from '../synth/kube-object';
import type { ClusterSetOutput } from '../synth/synth-clusterset';
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
export class EmitCache {
  private readonly byValue = new WeakMap<object, string>();
  private readonly byJson = new Map<string, string>();

  /** The YAML of an object, and whether this exact content was seen before. */
  yamlOf(o: KubeObject): { yaml: string; seen: boolean } {
    const shared = this.byValue.get(o);
    if (shared !== undefined) return { yaml: shared, seen: true };
    const json = JSON.stringify(canonical(o));
    let yaml = this.byJson.get(json);
    const seen = yaml !== undefined;
    if (yaml === undefined) {
      yaml = toYaml(o);
      this.byJson.set(json, yaml);
    }
    if (Object.isFrozen(o)) this.byValue.set(o, yaml);
    return { yaml, seen };
  }
}

/** Every file of one definition's output, checked; diagnostics for any self-check failure. */
export function layoutClusterSet(output: ClusterSetOutput, diagnostics: Diagnostic[], cache = new EmitCache()): OutputFile[] {
  const files: OutputFile[] = [];
  const root = output.name;
  const emit = (where: string, dir: string, objects: readonly KubeObject[], subdirOf?: (o: KubeObject) => string): string[] => {
    const sorted = sortObjects(objects);
    const rendered = sorted.map((o) => cache.yamlOf(o));
    // content seen earlier in this run has already passed its schema
    checkObjects(output.file, where, sorted, diagnostics, rendered.map((r) => r.seen), output.release);
    const paths = sorted.map((o) => (subdirOf ? `${subdirOf(o)}/${fileNameOf(o)}` : fileNameOf(o)));
    sorted.forEach((_, i) => files.push({ path: `${dir}/${paths[i]}`, content: rendered[i]!.yaml }));
    return paths;
  };
  for (const bundle of output.bundles) {
    const dir = `${root}/${bundle.clusterID}`;
    // a sub-kustomization per apply layer (one Flux Kustomization each); the root lists them all
    const paths = emit(`bundle ${dir}`, dir, bundle.objects, layerDirectoryOf);
    for (const layer of LAYER_DIRECTORIES) {
      const names = paths.filter((p) => p.startsWith(`${layer}/`)).map((p) => p.slice(layer.length + 1));
      files.push({ path: `${dir}/${layer}/kustomization.yaml`, content: toYaml(kustomization(names)) });
    }
    files.push({ path: `${dir}/kustomization.yaml`, content: toYaml(kustomization(LAYER_DIRECTORIES)) });
  }
  for (const [folder, objects] of Object.entries(output.engines).sort(([a], [b]) => cmp(a, b))) {
    emit(`${root}/${folder}`, `${root}/${folder}`, objects);
  }
  if (output.notes) files.push({ path: `${root}/README.md`, content: output.notes });
  return files;
}

/** A plain kustomization, valid for `kubectl apply -k` and for Argo CD and Flux. */
function kustomization(resources: readonly string[]) {
  return { apiVersion: 'kustomize.config.k8s.io/v1beta1', kind: 'Kustomization', resources };
}

/** dist/manifest.json: which definition produced which folder; also marks the folder as ours. */
export function manifestFile(outputs: readonly ClusterSetOutput[]): OutputFile {
  const clusterSets = Object.fromEntries(
    [...outputs]
      .sort((a, b) => cmp(a.name, b.name))
      .map((o) => [o.name, { source: o.file.split('\\').join('/'), clusters: o.bundles.map((b) => ({ clusterID: b.clusterID, role: b.role })) }]),
  );
  return { path: 'manifest.json', content: `${JSON.stringify({ generator: 'antrea-clusterset', clusterSets }, null, 2)}\n` };
}
