import type { ClusterSet } from '../model/clusterset';
import { effectiveClusters, type EffectiveCluster } from '../model/effective';
import { fluxKustomizationsOf, PRUNE_OFF_PATCH, removeArgoApplications, removeFluxKustomizations } from '../kube/kubectl-command';
import { shellQuote as q } from '../shell-quote';
import { engineName, LABELS } from '../synth/delivery/engine-names';
import { deliveryModes, type DeliveryMode } from '../synth/notes-delivery';
import { code } from '../synth/notes-markdown';
import type { ChecklistItem } from './checklist';
import type { PlanChange } from './plan';

/**
 * A change of delivery engine: the engine that delivered the bundles loses its objects from
 * `dist/`, but what it runs in the clusters stays and keeps acting until someone removes it.
 *
 * - Flux: the parent Kustomization (`antrea-<clusterset>`, created from the README) fails once its
 *   folder is gone and prunes nothing; each layer Kustomization carries
 *   `kustomize.toolkit.fluxcd.io/prune: disabled`, so no parent's garbage collection deletes it
 *   (kustomization_controller.go, deleteObjects' exclusions), and it keeps applying its layer, whose
 *   folder is still in `dist/`. Deleted with `spec.prune` on, a Kustomization deletes everything it
 *   applied, Antrea included (finalizerShouldDeleteResources, finalize): each is deleted with prune
 *   turned off first (PRUNE_OFF_PATCH).
 * - Argo CD: the ApplicationSets were applied by hand and keep their lists of clusters, so their
 *   Applications keep syncing the bundles until they are deleted. Deleting an ApplicationSet deletes
 *   its Applications (owner references: applicationset_controller.go, createOrUpdateInCluster), and
 *   an Application deleted while it carries the resources finalizer deletes what it applied
 *   (controller/appcontroller.go, finalizeApplicationDeletion, CascadedDeletion). The bundles'
 *   ApplicationSet leaves the finalizer out (preserveResourcesOnDeletion, applicationset/utils/utils.go
 *   RenderTemplateParams), but the exports units carry it so that a Service leaving git stops being
 *   exported: the ApplicationSets are deleted with `--cascade=orphan`, then each Application with its
 *   finalizers taken off first (removeArgoApplications), so the ServiceExports stay too.
 *
 * Until then both engines apply the same objects, so the old engine goes only once the new one
 * delivers. The new engine takes over what runs (server-side apply, the same objects).
 */

const ENGINE: Readonly<Record<DeliveryMode, string>> = {
  argocd: 'Argo CD',
  'flux-hub': 'a hub Flux',
  'flux-per-cluster': 'one Flux per cluster',
  manual: 'hand',
};
/** the README's section for an engine (notes-delivery.ts) */
const SECTION: Readonly<Record<DeliveryMode, string>> = {
  argocd: 'Delivery with Argo CD',
  'flux-hub': 'Delivery with Flux (hub)',
  'flux-per-cluster': 'Delivery with Flux (one per cluster)',
  manual: 'Order',
};

const modesOf = (d: ClusterSet) => deliveryModes(d, effectiveClusters(d)).filter((m) => m !== 'manual');
const names = (modes: readonly DeliveryMode[]) => modes.map((m) => ENGINE[m]).join(' and ');

/** The engines a change stops and starts using (a hub Flux and one Flux per cluster are two engines). */
function engineMoves(before: ClusterSet, after: ClusterSet): { leaving: DeliveryMode[]; coming: DeliveryMode[] } {
  const [was, now] = [modesOf(before), modesOf(after)];
  return { leaving: was.filter((m) => !now.includes(m)), coming: now.filter((m) => !was.includes(m)) };
}

/** The plan's line for a change of delivery engine: destructive, with the hand-over in order. */
export function engineChange(cs: string, before: ClusterSet, after: ClusterSet): PlanChange | undefined {
  const { leaving, coming } = engineMoves(before, after);
  if (leaving.length === 0) return undefined;
  const to = coming.length > 0 ? names(coming) : 'nobody: spec.delivery no longer names an engine';
  const details = [
    ...(leaving.some((m) => m.startsWith('flux'))
      ? [
          `Flux: its Kustomizations of ${cs} leave dist/${cs}/flux/ and are orphaned: the parent antrea-${cs} fails (its path is gone) and prunes nothing, and each layer Kustomization (guarded from the parent's pruning) keeps applying its layer; deleted with prune on, a Kustomization deletes everything it applied, Antrea included (kustomization_controller.go, finalize)`,
        ]
      : []),
    ...(leaving.includes('argocd')
      ? [
          `Argo CD: the ApplicationSets applied from dist/${cs}/argocd/ keep their cluster lists and sync the bundles until they are deleted; deleting one deletes its Applications, and an Application deleted with the resources finalizer (the exports units carry it) deletes what it applied (controller/appcontroller.go, finalizeApplicationDeletion): the ApplicationSets go with --cascade=orphan, then each Application with its finalizers off`,
        ]
      : []),
    'until the old engine is removed, both apply the same objects',
  ];
  const steps = [
    coming.length > 0
      ? `before merging, prepare ${names(coming)} as the ClusterSet's README says once merged ("${coming.map((m) => SECTION[m]).join('", "')}": destinations or kubeconfig Secrets, the source)`
      : 'before merging, decide who applies the bundles from now on: by hand, layer by layer (the README\'s "Order")',
    coming.length > 0
      ? `after merging, apply ${names(coming)}'s objects from dist/${cs}/ and wait until every cluster is Healthy (Argo CD) or Ready (Flux)`
      : `after merging, nothing delivers ${cs}: the clusters keep running what was applied`,
    `then remove ${names(leaving)}'s objects of ${cs} with the checklist's commands${leaving.some((m) => m.startsWith('flux')) ? ', each Kustomization with prune turned off first' : ''}${leaving.includes('argocd') ? ', each Application with its finalizers off once its ApplicationSet is gone' : ''}: what they applied stays`,
  ];
  return {
    impact: 'destructive',
    clusterSet: cs,
    text: `the bundles are delivered by ${to} instead of ${names(leaving)}: ${names(leaving)} keeps applying them until its objects are removed`,
    details,
    steps,
    about: { delivery: true },
  };
}

/** The checklist's items for a change of delivery engine: the new engine set up, then the old one's objects removed. */
export function engineHandOverItems(before: ClusterSet, after: ClusterSet): ChecklistItem[] {
  const { leaving, coming } = engineMoves(before, after);
  if (leaving.length === 0) return [];
  const cs = after.metadata.name;
  const items: ChecklistItem[] = coming.map((m) => ({
    clusterSet: cs,
    when: 'after merging',
    text: `Deliver ${code(cs)} with ${ENGINE[m]}: apply its objects as ${code(`dist/${cs}/README.md`)}, "${SECTION[m]}", shows, and wait until every cluster is Healthy or Ready.`,
  }));
  for (const m of leaving)
    items.push({
      clusterSet: cs,
      when: 'after merging',
      text:
        m === 'argocd'
          ? `Then remove Argo CD's ApplicationSets of ${code(cs)} without their Applications, then each Application with its finalizers taken off first, or the exports units delete the ServiceExports. If your app-of-apps applies ${code(`dist/${cs}/argocd/applications/`)}, take that folder out of it first, its prune off, or it syncs them back.`
          : `Then remove ${ENGINE[m]}'s Kustomizations of ${code(cs)}, each with prune turned off first, or Flux uninstalls what it applied, Antrea included.`,
      commands: m === 'argocd' ? argocdRemoval(before) : fluxRemoval(before, after, m),
    });
  return items;
}

function argocdRemoval(before: ClusterSet): string[] {
  const ns = q(before.spec.delivery.argocd!.namespace);
  const own = q(`${LABELS.clusterSet}=${before.metadata.name}`);
  return [
    `kubectl --context "$ARGOCD_CONTEXT" -n ${ns} delete applicationset -l ${own} --cascade=orphan`,
    removeArgoApplications('"$ARGOCD_CONTEXT"', before.spec.delivery.argocd!.namespace, own),
  ];
}

/**
 * Where the Flux that leaves holds the ClusterSet's Kustomizations: the hub (`$FLUX_CONTEXT`), or
 * each cluster. When a hub and one Flux per cluster trade places, the cluster the hub applies to
 * locally (no kubeconfig Secret) keeps its Kustomizations, which come back by name: only the
 * others' go.
 */
function fluxRemoval(before: ClusterSet, after: ClusterSet, leaving: DeliveryMode): string[] {
  const cs = before.metadata.name;
  const ns = before.spec.delivery.flux!.namespace;
  const own = fluxKustomizationsOf(cs);
  const parent = engineName('antrea', cs);
  const removeParent = (context: string) => [
    `kubectl --context ${context} -n ${q(ns)} patch kustomization ${q(parent)} ${PRUNE_OFF_PATCH}`,
    `kubectl --context ${context} -n ${q(ns)} delete kustomization ${q(parent)} --ignore-not-found`,
  ];
  const remote = (c: EffectiveCluster) => c.cluster.delivery.flux?.kubeConfigSecretRef !== undefined;
  const nowPerCluster = modesOf(after).includes('flux-per-cluster');
  const nowHub = modesOf(after).includes('flux-hub');
  if (leaving === 'flux-hub') {
    const FLUX = '"$FLUX_CONTEXT"';
    const clusters = effectiveClusters(before);
    // the hub applies to itself too: that cluster's own Flux takes its parent and Kustomizations over by name
    if (nowPerCluster && !clusters.every(remote))
      return clusters.filter(remote).map((c) => removeFluxKustomizations(FLUX, ns, q(`${own},${LABELS.clusterID}=${c.clusterID}`)));
    return [...removeParent(FLUX), removeFluxKustomizations(FLUX, ns, q(own))];
  }
  const local = nowHub
    ? new Set(
        effectiveClusters(after)
          .filter((c) => !remote(c))
          .map((c) => c.clusterID),
      )
    : new Set<string>();
  return effectiveClusters(before)
    .filter((c) => !local.has(c.clusterID))
    .flatMap((c) => [...removeParent(q(c.clusterID)), removeFluxKustomizations(q(c.clusterID), ns, q(own))]);
}
