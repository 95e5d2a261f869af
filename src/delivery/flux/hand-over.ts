import { fluxKustomizationsOf, PRUNE_OFF_PATCH, removeFluxKustomizations } from './removal';
import { effectiveClusters, type EffectiveCluster } from '../../model/effective';
import { code } from '../../text/markdown';
import { shellQuote as q } from '../../text/shell-quote';
import type { HandOverWords } from '../engine';
import { engineName, LABELS } from '../engine-names';
import { FLUX_FOLDER, FLUX_PER_CLUSTER_FOLDER } from './kustomizations';

/**
 * Flux leaving a ClusterSet: the parent Kustomization (`antrea-<clusterset>`, created from the
 * README) fails once its folder is gone and prunes nothing (kustomization_controller.go `build`:
 * "kustomization path not found"); a hub's `flux/` and the folders of one Flux per cluster are
 * apart (kustomizations.ts FLUX_PER_CLUSTER_FOLDER), so a parent never reads the other mode's; each layer Kustomization carries
 * `kustomize.toolkit.fluxcd.io/prune: disabled`, so no parent's garbage collection deletes it
 * (kustomization_controller.go, deleteObjects' exclusions), and it keeps applying its layer, whose
 * folder is still in `dist/`. Deleted with `spec.prune` on, a Kustomization deletes everything it
 * applied, Antrea included (finalizerShouldDeleteResources, finalize): each is deleted with prune
 * turned off first (PRUNE_OFF_PATCH).
 */
export const fluxHandOver: HandOverWords = {
  detail: (cs) =>
    `Flux: its Kustomizations of ${cs} leave dist/${cs}/${FLUX_FOLDER}/ (a hub's) or dist/${cs}/${FLUX_PER_CLUSTER_FOLDER}/<clusterID>/ (each cluster's own) and are orphaned: the parent antrea-${cs} in each Flux fails (its path is gone: neither folder holds the other) and prunes nothing, and each layer Kustomization (guarded from the parent's pruning) keeps applying its layer; deleted with prune on, a Kustomization deletes everything it applied, Antrea included (kustomization_controller.go, finalize)`,
  exportsUnitsGo: 'Flux deletes each exports Kustomization, which prunes what it applied',
  withdrawn: (before, id) =>
    before.spec.verify.job
      ? [
          `Flux: its verify Kustomization leaves its Flux folder and is orphaned (guarded): its Job and RBAC stay, and it reports the missing path until the clean-up after ${id} is removed`,
        ]
      : [],
  removalStep: ', each Kustomization with prune turned off first',
  // kustomize-controller's --controller-name, its ssa owner: a hub and one Flux per cluster apply as the same manager
  fieldManager: 'kustomize-controller',
  removal: (before, after, leaving, modesAfter) => {
    const hubLeaving = leaving.id === 'flux-hub';
    const now = modesAfter.map((m) => m.id);
    const takenOver = hubLeaving && hubTakenOverLocally(before, now);
    const commands = fluxRemoval(before, after, hubLeaving, takenOver, now);
    const cs = code(before.metadata.name);
    // the hub's own cluster keeps its parent by name, which the per-cluster README re-points: its
    // garbage collection would then delete the hub's Kustomizations of the other clusters, and the
    // unguarded ones (the exports units, #38) with prune on, which delete their ServiceExports
    // (kustomization_controller.go, prune → deleteObjects; finalize)
    if (takenOver)
      return {
        first: true,
        text: `Before applying the per-cluster Flux objects, remove the hub's Kustomizations of ${cs} for the clusters it reaches through a kubeconfig, each with prune turned off first: the README's parent ${code(engineName('antrea', before.metadata.name))} takes the hub's over by name in its own cluster, and its garbage collection would delete them with prune on, and with them what they applied (the ServiceExports).`,
        commands,
      };
    return {
      text: `Then remove ${leaving.name}'s Kustomizations of ${cs}, each with prune turned off first, or Flux uninstalls what it applied, Antrea included.`,
      commands,
    };
  },
};

const remote = (c: EffectiveCluster) => c.cluster.delivery.flux?.kubeConfigSecretRef !== undefined;

/** A hub that leaves for one Flux per cluster while it applies to its own cluster too: that cluster's Flux takes its parent over by name. */
const hubTakenOverLocally = (before: Parameters<HandOverWords['removal']>[0], now: readonly string[]) =>
  now.includes('flux-per-cluster') && !effectiveClusters(before).every(remote);

/**
 * Where the Flux that leaves holds the ClusterSet's Kustomizations: the hub (`$FLUX_CONTEXT`), or
 * each cluster. When a hub and one Flux per cluster trade places, the cluster the hub applies to
 * locally (no kubeconfig Secret) keeps its Kustomizations, which come back by name: only the
 * others' go.
 */
function fluxRemoval(
  before: Parameters<HandOverWords['removal']>[0],
  after: Parameters<HandOverWords['removal']>[1],
  hubLeaving: boolean,
  takenOver: boolean,
  now: readonly string[],
): string[] {
  const cs = before.metadata.name;
  const ns = before.spec.delivery.flux!.namespace;
  const own = fluxKustomizationsOf(cs);
  const parent = engineName('antrea', cs);
  const removeParent = (context: string) => [
    `kubectl --context ${context} -n ${q(ns)} patch kustomization ${q(parent)} ${PRUNE_OFF_PATCH}`,
    `kubectl --context ${context} -n ${q(ns)} delete kustomization ${q(parent)} --ignore-not-found`,
  ];
  const nowHub = now.includes('flux-hub');
  if (hubLeaving) {
    const FLUX = '"$FLUX_CONTEXT"';
    const clusters = effectiveClusters(before);
    // the hub applies to itself too: that cluster's own Flux takes its parent and Kustomizations over by name
    if (takenOver) return clusters.filter(remote).map((c) => removeFluxKustomizations(FLUX, ns, q(`${own},${LABELS.clusterID}=${c.clusterID}`)));
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
