import { App } from 'cdk8s';
import { effectiveClusters } from '../model/effective';
import type { ParsedClusterSet } from '../model/parse-clusterset';
import { crdObject, crdsFor, type AntreaRelease } from '../antrea/release';
import { releaseFor } from '../antrea/releases';
import { BundleChart } from './bundle-chart';
import { annotateForDelivery, deliveryObjects } from './delivery';
import { clusterSetNotes } from './notes';
import type { KubeObject } from './kube-object';
import type { BundleContext } from './parts/context';

/** One cluster's manifests. */
export interface Bundle {
  readonly clusterID: string;
  readonly role: 'leader' | 'member' | 'dual-role';
  readonly objects: readonly KubeObject[];
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
  /** dist/<clusterset>/README.md: what an operator still does by hand */
  readonly notes?: string;
}

/** One cdk8s App per cluster bundle: a single App for a fleet synthesizes superlinearly. */
export function synthClusterSet(parsed: ParsedClusterSet): ClusterSetOutput {
  const { definition } = parsed;
  const clusters = effectiveClusters(definition);
  const release = releaseFor(definition.spec.antrea.version);
  // unsupported-antrea-version stops the pipeline before synth
  if (!release) throw new Error(`synth reached with unsupported Antrea version ${definition.spec.antrea.version}`);
  return {
    name: definition.metadata.name,
    release,
    file: parsed.source.file,
    bundles: clusters.map((cluster) => synthBundle({ definition, clusters, cluster, release })),
    engines: deliveryObjects(definition, clusters),
    notes: clusterSetNotes(definition, clusters),
  };
}

function synthBundle(ctx: BundleContext): Bundle {
  const { cluster, release } = ctx;
  const app = new App();
  const chart = new BundleChart(app, cluster.clusterID, ctx);
  const role = cluster.isLeader && cluster.isMember ? 'dual-role' : cluster.isLeader ? 'leader' : 'member';
  // CRDs are static per release: shared values, not constructs, so a fleet serializes them once
  const crds = crdsFor(release, { leader: cluster.isLeader, member: cluster.isMember }).map(crdObject);
  return { clusterID: cluster.clusterID, role, objects: annotateForDelivery([...crds, ...(chart.toJson() as KubeObject[])]) };
}
