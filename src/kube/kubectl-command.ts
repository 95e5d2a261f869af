import { shellQuote } from '../shell-quote';

/**
 * `kubectl --context <clusterID>`: how every command the plan prints names its cluster, as the
 * ClusterSet's README maps cluster IDs to kubeconfig contexts. One place, so that a step names a
 * cluster the same way wherever it is printed.
 */
export const kubectlIn = (clusterID: string): string => `kubectl --context ${shellQuote(clusterID)}`;

/** The full resource name of Antrea's ClusterSet: no short name another CRD could shadow. */
export const CLUSTERSET_RESOURCE = 'clustersets.multicluster.crd.antrea.io';

/**
 * The `kubectl patch` arguments that turn a Flux Kustomization's `spec.prune` off: deleting one with
 * prune on makes kustomize-controller delete everything in its inventory, Antrea included
 * (kustomization_controller.go, finalize), so an orphaned Kustomization is deleted only after this.
 */
export const PRUNE_OFF_PATCH = `--type merge -p '{"spec":{"prune":false}}'`;
