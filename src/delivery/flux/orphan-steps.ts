import { fluxKustomizationsOf, removeFluxKustomizations } from './removal';
import type { ClusterSet } from '../../model/clusterset';
import type { EffectiveCluster } from '../../model/effective';
import { shellQuote as q } from '../../text/shell-quote';
import type { PlanStep } from '../engine';

/**
 * The old ClusterSet's Flux Kustomizations (layers, verification; its exports units are not guarded
 * and went with the definition, kustomizations.ts): once the definition is
 * removed the parent orphans them (they carry `kustomize.toolkit.fluxcd.io/prune: disabled`), and
 * they stay for good, Ready=False because their path is gone. Argo CD needs no step: the
 * ApplicationSet deletes its Applications and keeps what they applied. Each is deleted with
 * `spec.prune` turned off first: kustomize-controller's finalizer deletes everything in the
 * inventory of a Kustomization deleted with `prune: true` (kustomization_controller.go, finalize),
 * Antrea's agent and controller included.
 *
 * After a rename every name is gone for good. After a leader move the ClusterSet keeps its name,
 * so the Kustomizations of the clusters in `staying` come back under the same names: the new
 * definition's take them over with their inventory, and prune what the cluster no longer holds (a
 * former leader's leader controller); deleting them first would lose that inventory. Only the
 * clusters that leave lose theirs, before the definition comes back. A hub Flux runs where
 * `$FLUX_CONTEXT` points (the definition does not name that cluster, as in
 * plan/member-leaves.ts); otherwise each cluster's own Flux holds its Kustomizations.
 */
export function fluxOrphanSteps(
  definition: ClusterSet,
  clusters: readonly EffectiveCluster[],
  staying: ReadonlySet<string>,
  oneCommandEachUpTo: number,
): PlanStep[] {
  const flux = definition.spec.delivery.flux;
  if (!flux) return [];
  const { name } = definition.metadata;
  const leaving = clusters.map((c) => c.clusterID).filter((id) => !staying.has(id));
  if (leaving.length === 0) return [];
  const own = fluxKustomizationsOf(name);
  /** on the Flux of `context`, each Kustomization `selector` lists (a shell word): prune off, then delete */
  const removeAll = (context: string, selector: string) => removeFluxKustomizations(context, flux.namespace, selector);
  const text = (where: string) =>
    `${where}, delete the Flux Kustomizations of "${name}"${leaving.length < clusters.length ? ` for ${leaving.length === 1 ? `${leaving[0]!}, which leaves` : `the ${leaving.length} clusters that leave`}` : ''} (orphaned since the definition was removed, Ready=False as their path is gone), each with prune turned off first, or Flux uninstalls Antrea; what they applied stays${leaving.length < clusters.length ? '' : ", and the new definition's Kustomizations take it over"}`;
  const hub = clusters.some((c) => c.cluster.delivery.flux?.kubeConfigSecretRef);
  const FLUX = '"$FLUX_CONTEXT"';
  const onHub = 'on the hub Flux (the cluster "$FLUX_CONTEXT" names)';
  if (hub && leaving.length === clusters.length) return [{ text: text(onHub), commands: [removeAll(FLUX, q(own))] }];
  // one cluster's: on a hub Flux, its cluster-id label tells them apart; on its own Flux, they are all its
  const selectorOf = (id: string) => (hub ? q(`${own},antrea-clusterset/cluster-id=${id}`) : q(own));
  const contextOf = (id: string) => (hub ? FLUX : q(id));
  if (leaving.length <= oneCommandEachUpTo)
    return leaving.map((id) => ({ text: text(hub ? onHub : `on ${id}'s Flux`), commands: [removeAll(contextOf(id), selectorOf(id))] }));
  return [
    {
      text: text(hub ? onHub : `on the Flux of each cluster`),
      commands: [
        `for id in ${leaving.map(q).join(' ')}; do ${removeAll(hub ? FLUX : '"$id"', hub ? `${q(`${own},antrea-clusterset/cluster-id=`)}"$id"` : q(own))}; done`,
      ],
    },
  ];
}
