import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse, stringify } from 'yaml';
import { checkDefinitions } from '../../src/pipeline/pipeline';
import { EmitCache, layoutClusterSet } from '../../src/emit/layout';
import { synthClusterSet } from '../../src/synth/synth-clusterset';
import type { ClusterSetOutput } from '../../src/synth/synth-clusterset';
import type { ClusterSet } from '../../src/model/clusterset';
import { ApiServer } from './api-server';
import { Fleet } from './controllers';
import type { Obj } from './kube';
import { Revision } from './revision';

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
  readonly forEngine: (engine: 'argocd' | 'flux') => { revision: Revision; folder: string };
}

const scratch = () => mkdtempSync(join(process.env.CLUSTERSET_TEST_TMPDIR ?? '/dev/shm', 'engine-replay-'));

/** One emit cache for the whole run: the same shared units are laid out once, as in one synth of many definitions. */
const cache = new EmitCache();

/**
 * Compiles a definition and returns the files `synth` writes (paths under `dist/`): the pipeline of
 * `compile()`, load to layout, without its secret scans, which only refuse and never change a file.
 */
export async function compileDefinition(definition: DefinitionData): Promise<Compiled> {
  const dir = scratch();
  try {
    const file = join(dir, `${definition.metadata.name}.yaml`);
    writeFileSync(file, stringify(definition));
    const { diagnostics, parsed } = await checkDefinitions([file]);
    const fail = () => {
      const errors = diagnostics.filter((d) => d.severity === 'error');
      if (errors.length > 0) throw new Error(`${definition.metadata.name}: ${errors.map((d) => `${d.code}: ${d.message}`).join('; ')}`);
    };
    fail();
    const output = synthClusterSet(parsed[0]!);
    const files = layoutClusterSet(output, diagnostics, cache);
    fail();
    const delivery = parsed[0]!.definition.spec.delivery;
    return {
      revision: Revision.fromOutput(files),
      output,
      definition: parsed[0]!.definition,
      forEngine: (engine) => {
        const path = delivery[engine]?.path.replace(/^\.\/|\/$/g, '') ?? 'dist';
        return { revision: Revision.fromOutput(files, path), folder: `${path}/${output.name}/${engine}` };
      },
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
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
          compiled.output.bundles.find((b) => b.clusterID === h.clusterID)!.objects.map((o) => `${o.kind}/${o.metadata.namespace}/${o.metadata.name}`),
        );
        const antrea = fullOutput.bundles
          .find((b) => b.clusterID === h.clusterID)!
          .objects.filter((o) => !ours.has(`${o.kind}/${o.metadata.namespace}/${o.metadata.name}`))
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
  const fleet = new Fleet(servers);
  fleet.settle();
  return fleet;
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
