import { shellQuote } from '../shell-quote';

/**
 * `kubectl --context <clusterID>`: how every command the plan prints names its cluster, as the
 * ClusterSet's README maps cluster IDs to kubeconfig contexts. One place, so that a step names a
 * cluster the same way wherever it is printed.
 */
export const kubectlIn = (clusterID: string): string => `kubectl --context ${shellQuote(clusterID)}`;

/** The full resource name of Antrea's ClusterSet: no short name another CRD could shadow. */
export const CLUSTERSET_RESOURCE = 'clustersets.multicluster.crd.antrea.io';
