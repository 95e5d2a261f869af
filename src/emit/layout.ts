import type { Diagnostic } from '../diagnostics/diagnostic';
import { layerIndex } from '../synth/layers';
import type { KubeObject } from '../synth/kube-object';
import type { ClusterSetOutput } from '../synth/synth-clusterset';
import { checkObjects } from './check-output';
import { toYaml } from './serialize';

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
 * Objects shared by many bundles (CRDs) are the same JS value in each; their YAML is
 * computed and checked once per run, not once per cluster.
 */
const yamlCache = new WeakMap<object, string>();
const yamlOf = (o: KubeObject): string => {
  let text = yamlCache.get(o);
  if (text === undefined) {
    text = toYaml(o);
    yamlCache.set(o, text);
  }
  return text;
};

/** Every file of one definition's output, checked; diagnostics for any self-check failure. */
export function layoutClusterSet(output: ClusterSetOutput, diagnostics: Diagnostic[], checked = new WeakSet<object>()): OutputFile[] {
  const files: OutputFile[] = [];
  const root = output.name;
  for (const bundle of output.bundles) {
    const dir = `${root}/${bundle.clusterID}`;
    checkObjects(output.file, `bundle ${dir}`, bundle.objects, diagnostics, checked);
    const sorted = sortObjects(bundle.objects);
    const names = sorted.map(fileNameOf);
    sorted.forEach((o, i) => files.push({ path: `${dir}/${names[i]}`, content: yamlOf(o) }));
    files.push({ path: `${dir}/kustomization.yaml`, content: toYaml(kustomization(names)) });
  }
  for (const [folder, objects] of Object.entries(output.engines).sort(([a], [b]) => cmp(a, b))) {
    checkObjects(output.file, `${root}/${folder}`, objects, diagnostics, checked);
    for (const o of sortObjects(objects)) files.push({ path: `${root}/${folder}/${fileNameOf(o)}`, content: yamlOf(o) });
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
