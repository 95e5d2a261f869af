import { deliveryObjects } from '../synth/delivery';
import type { ClusterSetOutput, ClusterSetSources } from '../synth/synth-clusterset';

/**
 * Two revisions' outputs holding only what can differ between them, which is all a plan
 * compares. A bundle whose input hash (`BundleSource.inputs`: compiler, release, the bundle's
 * slice of the definition) is the same on both sides is the same objects, as are a cluster's
 * engine objects whose `ClusterDelivery.hash` is, so neither side builds them; the incremental
 * synth keeps files on the same proof. A ClusterSet on one side only is built whole, and objects
 * of the whole ClusterSet (the ApplicationSet) always are. A one-member change to a fleet of
 * 10,000 builds two bundles instead of 20,000.
 */
export function changedOutputs(base: readonly ClusterSetSources[], head: readonly ClusterSetSources[]): { base: ClusterSetOutput[]; head: ClusterSetOutput[] } {
  const byName = (sets: readonly ClusterSetSources[]) => new Map(sets.map((s) => [s.name, s]));
  const [before, after] = [byName(base), byName(head)];
  return { base: base.map((s) => differing(s, after.get(s.name))), head: head.map((s) => differing(s, before.get(s.name))) };
}

/** A ClusterSet's output with the bundles and engine objects that differ from the other revision's. */
function differing(set: ClusterSetSources, other: ClusterSetSources | undefined): ClusterSetOutput {
  const { sources, ...rest } = set;
  const bundles = new Map(other?.sources.map((s) => [s.clusterID, s]));
  const engines = new Map(other?.delivery.clusters.map((c) => [c.clusterID, c.hash]));
  return {
    ...rest,
    bundles: sources
      .filter((s) => {
        const o = bundles.get(s.clusterID);
        return o?.inputs !== s.inputs || o.role !== s.role;
      })
      .map((s) => s.synth()),
    engines: deliveryObjects({ clusterSet: set.delivery.clusterSet, clusters: set.delivery.clusters.filter((c) => engines.get(c.clusterID) !== c.hash) }),
  };
}
