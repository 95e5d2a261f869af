import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { parse, stringify } from 'yaml';
import { compile, type CompileResult } from '../../src/pipeline/compile';
import { FLUX_PER_CLUSTER_FOLDER } from '../../src/delivery/flux/kustomizations';
import type { ClusterSetOutput } from '../../src/synth/synth-clusterset';
import type { ClusterSet } from '../../src/model/clusterset';
import { parseClusterSet } from '../../src/model/parse-clusterset';
import { ApiServer } from './kubernetes/api-server';
import { Fleet } from './antrea/controllers';
import type { Obj } from './kubernetes/kube';
import { Revision } from './engines/revision';
import type { EngineKey } from '../../src/delivery/engine';

/** A definition's data, as in `clustersets/*.yaml` or `defineClusterSet({...})`. */
export type DefinitionData = {
  metadata: { name: string };
  spec: {
    antrea: { version: string };
    clusters: {
      clusterID: string;
      cloud?: string;
      install?: string;
      member?: boolean;
      gateways?: { node: string }[];
      delivery?: Record<string, unknown>;
      tokenSecret?: { source?: string };
    }[];
    services?: { namespace: string }[];
    delivery?: Record<string, unknown>;
    [k: string]: unknown;
  };
  [k: string]: unknown;
};

/** A definition file's data (a path from the repository's root). */
export const readDefinition = (file: string): DefinitionData => parse(readFileSync(file, 'utf8')) as DefinitionData;

export interface Compiled {
  /** the files under `dist/` */
  readonly revision: Revision;
  readonly output: ClusterSetOutput;
  /** the definition as the compiler read it (defaults applied) */
  readonly definition: ClusterSet;
  /** what one engine reads: the files under its delivery `path`, and its folder of engine objects */
  readonly forEngine: (engine: EngineKey) => { revision: Revision; folder: string };
}

const scratch = () => mkdtempSync(join(process.env.CLUSTERSET_TEST_TMPDIR ?? '/dev/shm', 'engine-replay-'));

/**
 * `compile()` of a definition, once per text: test files share their worker, and many replay the
 * same example. The definition is written where `clusterset synth` reads one
 * (`clustersets/<name>.yaml` beside `dist/`), so even manifest.json is the file synth writes.
 */
const compiled = new Map<string, Promise<CompileResult>>();

function compileText(name: string, text: string): Promise<CompileResult> {
  let result = compiled.get(text);
  if (!result) {
    const dir = scratch();
    const file = join(dir, 'clustersets', `${name}.yaml`);
    mkdirSync(dirname(file));
    writeFileSync(file, text);
    result = compile({ files: [file], outDir: join(dir, 'dist') }).finally(() => rmSync(dir, { recursive: true, force: true }));
    compiled.set(text, result);
  }
  return result;
}

/**
 * Compiles a definition as `clusterset synth` does (compile(): the pipeline into its memory sink)
 * and returns the very files synth writes, by their paths under `dist/`
 * (replayed-is-synth.test.ts holds them to the committed dist/).
 */
export async function compileDefinition(definition: DefinitionData): Promise<Compiled> {
  const { diagnostics, sources, outputs, files } = await compileText(definition.metadata.name, stringify(definition));
  const errors = diagnostics.filter((d) => d.severity === 'error');
  if (errors.length > 0) throw new Error(`${definition.metadata.name}: ${errors.map((d) => `${d.code}: ${d.message}`).join('; ')}`);
  const output = outputs[0]!;
  // the definition as the pipeline read it (its schema's defaults applied)
  const parsed = parseClusterSet(sources[0]!, [])!.definition;
  const delivery = parsed.spec.delivery;
  return {
    revision: Revision.fromOutput(files),
    output,
    definition: parsed,
    forEngine: (engine) => {
      const path = delivery[engine]?.path.replace(/^\.\/|\/$/g, '') ?? 'dist';
      // one Flux per cluster: the root of the clusters' folders (FLUX_PER_CLUSTER_FOLDER), as synth wrote them
      const perCluster = engine === 'flux' && files.some((f) => f.path.startsWith(`${output.name}/${FLUX_PER_CLUSTER_FOLDER}/`));
      return { revision: Revision.fromOutput(files, path), folder: `${path}/${output.name}/${perCluster ? FLUX_PER_CLUSTER_FOLDER : engine}` };
    },
  };
}

/** Both engines for every cluster, whatever the definition names, so each example replays in each. */
export function withBothEngines(definition: DefinitionData): DefinitionData {
  const d = structuredClone(definition);
  const delivery = { ...d.spec.delivery };
  delivery.argocd ??= { repoURL: 'https://git.example.com/fleet.git' };
  delivery.flux ??= { sourceRef: { kind: 'GitRepository', name: 'fleet', namespace: 'flux-system' } };
  d.spec.delivery = delivery;
  for (const c of d.spec.clusters) c.delivery = { ...c.delivery, argocd: c.delivery?.argocd ?? { name: c.clusterID } };
  return d;
}

export interface FleetOptions {
  /** application Namespaces (of `spec.services`) exist before the first sync */
  readonly appNamespaces: boolean;
  /** Kubernetes minor version of every cluster */
  readonly kubernetesMinor?: number;
  /** a hub Flux on a management cluster the definition does not name (every cluster has a kubeConfigSecretRef): its ID */
  readonly fluxHub?: string;
}

/**
 * The clusters a definition describes, before the first sync: a managed cloud's Nodes (and any
 * cluster whose Antrea or other CNI is installed elsewhere) are Ready; a kubeadm cluster's are
 * NotReady until antrea-agent runs. An `install: multiclusterOnly` member runs Antrea from its Helm
 * chart at the same release: its Antrea objects are those a `full` bundle would hold.
 */
export async function fleetFor(definition: DefinitionData, compiled: Compiled, options: FleetOptions): Promise<Fleet> {
  const helm = definition.spec.clusters.filter((c) => c.install === 'multiclusterOnly' && c.member !== false);
  let preinstalled = new Map<string, Obj[]>();
  if (helm.length > 0) {
    const full = structuredClone(definition);
    for (const c of full.spec.clusters) if (helm.some((h) => h.clusterID === c.clusterID)) delete c.install;
    const fullOutput = (await compileDefinition(full)).output;
    preinstalled = new Map(
      helm.map((h) => {
        const ours = new Set(
          compiled.output.bundles.find((b) => b.clusterID === h.clusterID)!.objects.map((o) => `${o.kind}/${String(o.metadata.namespace)}/${o.metadata.name}`),
        );
        const antrea = fullOutput.bundles
          .find((b) => b.clusterID === h.clusterID)!
          .objects.filter((o) => !ours.has(`${o.kind}/${String(o.metadata.namespace)}/${o.metadata.name}`))
          // the chart's own objects: Antrea's core, not what the bundle adds for Multi-cluster
          .filter((o) => o.kind !== 'ClusterSet' && o.kind !== 'Tier' && o.kind !== 'Node');
        return [h.clusterID, antrea as unknown as Obj[]];
      }),
    );
  }
  const appNamespaces = [...new Set((definition.spec.services ?? []).map((s) => s.namespace))];
  const servers = definition.spec.clusters.map(
    (c) =>
      new ApiServer({
        clusterID: c.clusterID,
        nodes: [...new Set([...(c.gateways ?? []).map((g) => g.node), `${c.clusterID}-worker`])],
        cni: c.cloud !== undefined || c.install === 'multiclusterOnly' ? 'other' : 'none',
        namespaces: options.appNamespaces ? appNamespaces : [],
        preinstalled: [...(preinstalled.get(c.clusterID) ?? []), ...operatorCrds(c.tokenSecret?.source)],
        kubernetesMinor: options.kubernetesMinor,
      }),
  );
  const hub = options.fluxHub !== undefined ? [new ApiServer({ clusterID: options.fluxHub, nodes: [], cni: 'other' })] : [];
  const fleet = new Fleet([...servers, ...hub]);
  if (
    options.fluxHub !== undefined &&
    definition.spec.clusters.every((c) => (c.delivery?.flux as { kubeConfigSecretRef?: unknown } | undefined)?.kubeConfigSecretRef)
  )
    fleet.operator.fluxHomes.set(compiled.forEngine('flux').folder, options.fluxHub);
  registerDelivery(fleet, compiled);
  fleet.settle();
  return fleet;
}

const IN_CLUSTER = 'https://kubernetes.default.svc';

/**
 * What the person does for the engines, as docs/delivery.md tells them, from the definition (never
 * from the bundles): the clusters answer on the addresses it names (the leader's `server`, a
 * destination's URL); each cluster is registered in Argo CD under its destination's name (at the
 * cluster's first address) or URL, and Argo CD runs in the cluster whose destination is
 * `https://kubernetes.default.svc`; a hub Flux runs in the one cluster without a
 * `kubeConfigSecretRef` and holds a kubeconfig Secret for each other, in the Kustomizations'
 * Namespace; otherwise each cluster's own Flux applies `flux-per-cluster/<clusterID>/`. Called again for a
 * definition that renames or moves things, as the person would follow it.
 */
export function registerDelivery(fleet: Fleet, compiled: Pick<Compiled, 'definition' | 'forEngine' | 'output'>): void {
  const d = compiled.definition;
  const addAddress = (id: string, url: string) => {
    const c = fleet.clusters.get(id);
    const u = url.replace(/\/+$/, '');
    if (c && u !== IN_CLUSTER && !c.addresses.includes(u)) c.addresses.push(u);
  };
  addAddress(d.spec.leader.clusterID, d.spec.leader.server);
  for (const c of d.spec.clusters) {
    const argocd = c.delivery.argocd as { name?: string; server?: string } | undefined;
    if (argocd?.server) addAddress(c.clusterID, argocd.server);
  }
  for (const c of d.spec.clusters) {
    const argocd = c.delivery.argocd as { name?: string; server?: string } | undefined;
    const cluster = fleet.clusters.get(c.clusterID);
    if (!argocd || !cluster) continue;
    if (argocd.server?.replace(/\/+$/, '') === IN_CLUSTER) fleet.operator.argocdHome = c.clusterID;
    const entry = argocd.name ? { name: argocd.name, server: cluster.addresses[0]! } : { name: c.clusterID, server: argocd.server!.replace(/\/+$/, '') };
    if (entry.server !== IN_CLUSTER && !fleet.operator.argocdClusters.some((x) => x.name === entry.name && x.server === entry.server))
      fleet.operator.argocdClusters.push(entry);
  }
  const flux = d.spec.delivery.flux;
  if (!flux) return;
  const folder = compiled.forEngine('flux').folder;
  const remote = d.spec.clusters.filter((c) => c.delivery.flux?.kubeConfigSecretRef);
  if (remote.length === 0) {
    for (const c of d.spec.clusters) fleet.operator.fluxHomes.set(`${folder}/${c.clusterID}`, c.clusterID);
    return;
  }
  const own = d.spec.clusters.find((c) => !c.delivery.flux?.kubeConfigSecretRef)?.clusterID;
  const hubID = own !== undefined && fleet.clusters.has(own) ? own : fleet.operator.fluxHomes.get(folder);
  if (!hubID) throw new Error(`${d.metadata.name}: every cluster has a kubeConfigSecretRef: a hub outside the fleet is not modelled`);
  fleet.operator.fluxHomes.set(folder, hubID);
  const hub = fleet.cluster(hubID);
  if (!hub.namespaceExists(flux.namespace)) hub.put({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: flux.namespace } });
  for (const c of remote) {
    const ref = c.delivery.flux!.kubeConfigSecretRef!;
    const target = fleet.clusters.get(c.clusterID);
    if (!target || hub.get('v1', 'Secret', flux.namespace, ref.name)) continue;
    // `kubectl create secret generic <name> --from-file=value=<cluster>.kubeconfig`
    const kubeconfig = stringify({
      apiVersion: 'v1',
      kind: 'Config',
      'current-context': c.clusterID,
      clusters: [{ name: c.clusterID, cluster: { server: target.addresses[0], 'certificate-authority-data': target.ca } }],
      contexts: [{ name: c.clusterID, context: { cluster: c.clusterID, user: 'flux' } }],
      users: [{ name: 'flux', user: { token: 'flux-token' } }],
    });
    hub.put({
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: ref.name, namespace: flux.namespace },
      type: 'Opaque',
      data: { [ref.key ?? 'value']: btoa(kubeconfig) },
    });
  }
}

const operatorCrd = (group: string, kind: string, version: string): Obj => ({
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: `${kind.toLowerCase()}s.${group}` },
  spec: { group, scope: 'Namespaced', names: { kind, plural: `${kind.toLowerCase()}s` }, versions: [{ name: version, served: true, storage: true }] },
});

/** The operator a member's token source needs, installed first as docs/delivery.md says. */
function operatorCrds(source: string | undefined): Obj[] {
  if (source === 'externalSecret') return [operatorCrd('external-secrets.io', 'ExternalSecret', 'v1')];
  if (source === 'sealedSecret') return [operatorCrd('bitnami.com', 'SealedSecret', 'v1alpha1')];
  return [];
}

/** An event that creates the applications' Namespaces, as their own delivery would. */
export const createNamespaces = (definition: DefinitionData) => (fleet: Fleet) => {
  const namespaces = [...new Set((definition.spec.services ?? []).map((s) => s.namespace))];
  for (const c of fleet.clusters.values())
    for (const ns of namespaces) if (!c.namespaceExists(ns)) c.put({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } });
  return `the applications' delivery created Namespaces ${namespaces.join(', ')}`;
};
