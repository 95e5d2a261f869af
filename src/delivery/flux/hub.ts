import type { EffectiveCluster } from '../../model/effective';

/** A kubeconfig Secret on any cluster makes Flux a hub that applies every cluster's Kustomizations. */
export const isFluxHub = (clusters: readonly EffectiveCluster[]): boolean => clusters.some((c) => c.cluster.delivery.flux?.kubeConfigSecretRef);

declare module '../cluster-inputs' {
  interface EngineInputs {
    /** a hub Flux applies every cluster's Kustomizations (some cluster has a kubeconfig Secret) */
    readonly fluxHub: boolean;
  }
}
