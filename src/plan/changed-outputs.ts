import { deliveryObjects } from '../delivery';
import type { BundleSource, ClusterSetOutput, ClusterSetSources } from '../synth/synth-clusterset';

/*
 * A plan compares only what can differ between two revisions. A bundle whose input hash
 * (`BundleSource.inputs`: compiler, release, the bundle's slice of the definition) is the same on
 * both sides is the same objects, as are a cluster's engine objects whose `ClusterDelivery.hash`
 * is, so neither side builds them; the incremental synth keeps files on the same proof. A
 * ClusterSet on one side only is built whole, and objects of the whole ClusterSet (the
 * ApplicationSet) always are. A one-member change to a fleet of 10,000 builds two bundles instead
 * of 20,000. plan-sink.ts applies this to the pipeline; changedOutputs to two revisions' sources.
 */

/** Each ClusterSet's bundles and engine hashes by cluster ID, to be compared with the other revision's. */
export class OtherRevision {
  private readonly sets: ReadonlyMap<string, ClusterSetSources>;
  private readonly bundles = new Map<string, ReadonlyMap<string, BundleSource>>();
  private readonly engines = new Map<string, ReadonlyMap<string, string>>();

  constructor(sets: readonly ClusterSetSources[]) {
    this.sets = new Map(sets.map((s) => [s.name, s]));
  }

  /** The other revision builds this bundle the same. */
  sameBundle(set: string, source: BundleSource): boolean {
    let bundles = this.bundles.get(set);
    if (!bundles) this.bundles.set(set, (bundles = new Map(this.sets.get(set)?.sources.map((s) => [s.clusterID, s]))));
    const o = bundles.get(source.clusterID);
    return o?.inputs === source.inputs && o.role === source.role;
  }

  /** The other revision builds this cluster's engine objects the same. */
  sameEngines(set: string, clusterID: string, hash: string): boolean {
    let engines = this.engines.get(set);
    if (!engines) this.engines.set(set, (engines = new Map(this.sets.get(set)?.delivery.clusters.map((c) => [c.clusterID, c.hash]))));
    return engines.get(clusterID) === hash;
  }
}

/** Two revisions' outputs holding only what can differ between them. */
export function changedOutputs(base: readonly ClusterSetSources[], head: readonly ClusterSetSources[]): { base: ClusterSetOutput[]; head: ClusterSetOutput[] } {
  const [before, after] = [new OtherRevision(base), new OtherRevision(head)];
  return { base: base.map((s) => differing(s, after)), head: head.map((s) => differing(s, before)) };
}

function differing(set: ClusterSetSources, other: OtherRevision): ClusterSetOutput {
  const { sources, ...rest } = set;
  return {
    ...rest,
    bundles: sources.filter((s) => !other.sameBundle(set.name, s)).map((s) => s.synth()),
    engines: deliveryObjects({
      clusterSet: set.delivery.clusterSet,
      clusters: set.delivery.clusters.filter((c) => !other.sameEngines(set.name, c.clusterID, c.hash)),
    }),
  };
}
