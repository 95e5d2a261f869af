import { createHash } from 'node:crypto';
import { App } from 'cdk8s';
import { effectiveClusters, type EffectiveCluster } from '../model/effective';
import { exportsWhileWithdrawing } from '../model/withdraw';
import { gatewayPeerList, peersOf, type GatewayPeer } from '../model/gateways';
import type { ClusterSet } from '../model/clusterset';
import type { ParsedClusterSet } from '../model/parse-clusterset';
import { crdObject, crdsFor, type AntreaRelease } from '../antrea/release';
import { releaseFor } from '../antrea/releases';
import { COMPILER } from '../compiler-version';
import { BundleChart, renderedOnce } from './bundle-chart';
import { annotateForDelivery, deliverySources, type DeliverySources } from '../delivery';
import { roleOf, type Role } from '../delivery/engine-names';
import { clusterSetNotes } from './notes';
import type { KubeObject } from '../kube/kube-object';
import { antreaChartValues } from './parts/antrea-core';
import { sharedParts } from './parts';
import type { BundleContext } from './parts/context';

export type { Role } from '../delivery/engine-names';

/** One cluster's manifests. */
export interface Bundle {
  readonly clusterID: string;
  readonly role: Role;
  /** the hash of what it was built from (BundleSource.inputs) */
  readonly inputs: string;
  /** in no particular order (the layout stage sorts); CRDs are shared frozen values of the release */
  readonly objects: readonly KubeObject[];
  /** values for Antrea's Helm chart, where the cluster's Antrea is installed elsewhere */
  readonly helmValues?: Readonly<Record<string, unknown>>;
}

/**
 * A bundle before it is built: what it is and a hash of everything it is built from, so an
 * incremental synth can tell that a bundle in the output is already what it would build.
 */
export interface BundleSource {
  readonly clusterID: string;
  readonly role: Role;
  /** sha256 (hex, 32 characters) of the compiler, the release and the bundle's slice of the definition */
  readonly inputs: string;
  readonly synth: () => Bundle;
}

/** Everything compiled from one definition. */
export interface ClusterSetOutput {
  readonly name: string;
  /** the Antrea release the objects are built for (and checked against) */
  readonly release: AntreaRelease;
  /** the definition file, for diagnostics and manifest.json */
  readonly file: string;
  readonly bundles: readonly Bundle[];
  /** objects beside the bundles, by folder (argocd/, flux/) */
  readonly engines: Readonly<Record<string, readonly KubeObject[]>>;
  /** the same objects, each cluster's built on demand with the hash of its inputs (manifest.json records it) */
  readonly delivery: DeliverySources;
  /** dist/<clusterset>/README.md: what an operator still does by hand */
  readonly notes?: string;
}

/** A ClusterSet whose bundles are built on demand, one at a time (bounded memory for a fleet). */
export type ClusterSetSources = Omit<ClusterSetOutput, 'bundles' | 'engines'> & { readonly sources: readonly BundleSource[] };

/** The ClusterSet's shared outputs, and one source per bundle that builds it when asked. */
export function clusterSetSources(parsed: ParsedClusterSet): ClusterSetSources {
  const clusters = effectiveClusters(parsed.definition);
  // what the bundles, the delivery and the notes export: nothing from a withdrawing member
  const definition = exportsWhileWithdrawing(parsed.definition, clusters);
  const release = releaseFor(definition.spec.antrea.version);
  // unsupported-antrea-version stops the pipeline before synth
  if (!release) throw new Error(`synth reached with unsupported Antrea version ${definition.spec.antrea.version}`);
  const shared = sharedInputs(definition, release);
  const leaders = clusters.filter((c) => c.isLeader);
  const peerList = gatewayPeerList(clusters);
  // each cluster's part of the hashes, serialized once: a member's hash reads the leader's too
  const hashed = new Map(clusters.map((c) => [c, JSON.stringify([c.clusterID, c.isLeader, c.isMember, c.cluster])]));
  return {
    name: definition.metadata.name,
    release,
    file: parsed.source.file,
    sources: clusters.map((cluster) => bundleSource(sliceFor(definition, clusters, leaders, cluster, release, peerList), shared, hashed)),
    delivery: deliverySources(definition, clusters),
    notes: clusterSetNotes(definition, clusters, release),
  };
}

/**
 * What one bundle is built from. A member reads only itself and the leader, and of the other
 * members their Gateway candidates (`peers`: its verification compares its ClusterInfoImports
 * with them, up to MAX_GATEWAY_PEERS of them); the leader holds a credential per member, so it reads every member's ID and role,
 * and nothing else of them (a dual-role leader's verification checks no ClusterInfo). Each
 * bundle's parts are given exactly that slice of the definition (other clusters as views that
 * refuse any other field), so the hash of the slice covers everything the bundle can depend on:
 * a setting of one member rebuilds that member alone, but for its Gateway candidates, which the
 * other members' verification compares with.
 */
function sliceFor(
  definition: ClusterSet,
  clusters: readonly EffectiveCluster[],
  leaders: readonly EffectiveCluster[],
  cluster: EffectiveCluster,
  release: AntreaRelease,
  peerList: readonly GatewayPeer[],
): BundleContext {
  // a member's slice is the leaders and itself, in definition order, found without walking the
  // fleet (a walk per member made a fleet's hashing quadratic)
  const slice = cluster.isLeader
    ? clusters.map((c) => (c === cluster || c.isLeader ? c : identityView(c)))
    : [...leaders, cluster].sort((a, b) => a.index - b.index);
  const spec = {
    ...definition.spec,
    clusters: slice.map((c) =>
      c === cluster || c.isLeader
        ? c.cluster
        : {
            clusterID: c.clusterID,
            member: c.isMember,
            ...(c.leaderCredentials && { leaderCredentials: c.leaderCredentials }),
            ...(c.withdrawing && { withdraw: true }),
            // the name of its token Secret on the leader moves with each rotation
            ...(c.rotation > 0 && { tokenSecret: { rotation: c.rotation } }),
          },
    ),
  };
  const peers = cluster.isLeader ? [] : peersOf(peerList, cluster);
  return { definition: { ...definition, spec: spec as ClusterSet['spec'] }, clusters: slice, cluster, release, peers };
}

// leaderCredentials: the names of a member's credentials, which the leader bundle holds
// withdrawing: the leader's ClusterSet expects only the members that stay
// leaderTokenName, rotation: the member's token Secret on the leader, at its rotation (tokenSecret.rotation)
const IDENTITY = new Set<PropertyKey>([
  'clusterID',
  'isLeader',
  'isMember',
  'index',
  'path',
  'leaderCredentials',
  'withdrawing',
  'leaderTokenName',
  'rotation',
]);

/** Another cluster as the leader sees it: its ID and role; reading anything else is a bug in a part. */
function identityView(c: EffectiveCluster): EffectiveCluster {
  return new Proxy(c, {
    get(target, key, receiver) {
      if (IDENTITY.has(key) || typeof key === 'symbol') return Reflect.get(target, key, receiver) as unknown;
      throw new Error(`a leader bundle part read "${key}" of member ${target.clusterID}: widen the leader's slice in synth-clusterset.ts (and its hash)`);
    },
  });
}

/** The part of every bundle's hash that is the same for the whole ClusterSet. */
function sharedInputs(definition: ClusterSet, release: AntreaRelease): string {
  const spec: Partial<ClusterSet['spec']> = { ...definition.spec };
  delete spec.clusters;
  return JSON.stringify([COMPILER, release.version, definition.apiVersion, definition.metadata, spec]);
}

function bundleSource(ctx: BundleContext, shared: string, hashed: ReadonlyMap<EffectiveCluster, string>): BundleSource {
  const { cluster, release } = ctx;
  const role = roleOf(cluster);
  const hash = createHash('sha256').update(shared).update('\n');
  for (const c of ctx.clusters) {
    const whole = c === cluster || c.isLeader;
    const identity = [
      c.clusterID,
      c.isLeader,
      c.isMember,
      ...(c.leaderCredentials ? [c.leaderCredentials] : []),
      ...(c.withdrawing ? ['withdrawing'] : []),
      // the name of its token Secret on the leader (tokenSecret.rotation)
      ...(c.rotation > 0 ? [`rotation ${c.rotation}`] : []),
    ];
    hash.update(whole ? hashed.get(c)! : JSON.stringify(identity)).update('\n');
  }
  // the other members' candidates: a candidate added elsewhere changes this member's verification
  if (ctx.peers.length > 0) hash.update(JSON.stringify(ctx.peers)).update('\n');
  const inputs = hash.digest('hex').slice(0, 32);
  return {
    clusterID: cluster.clusterID,
    role,
    inputs,
    synth: () => {
      // Antrea installed elsewhere brings its own core CRDs (the chart's crds/)
      const crdModels = crdsFor(release, { core: cluster.cluster.install === 'full', leader: cluster.isLeader, member: cluster.isMember });
      // one cdk8s App per bundle: one App holding a fleet synthesizes superlinearly (bench/synth.bench.ts)
      const chart = new BundleChart(new App(), cluster.clusterID, ctx);
      // CRDs are static per release and shared parts depend on a few inputs: shared frozen values,
      // not per-cluster constructs, so a fleet builds, serializes and checks them once
      const shared = sharedParts.flatMap((part) => {
        const { key, build } = part.render(ctx);
        return renderedOnce(key, build);
      });
      const objects = annotateForDelivery([...crdModels.map(crdObject), ...shared, ...(chart.toJson() as KubeObject[])]);
      const helmValues = antreaChartValues(ctx);
      return { clusterID: cluster.clusterID, role, inputs, objects, ...(helmValues && { helmValues }) };
    },
  };
}
