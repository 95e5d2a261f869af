import type { ClusterSet } from '../model/clusterset';
import type { EffectiveCluster } from '../model/effective';
import { deliveryModes, ENGINES } from '../delivery/registry';

/** Where the clusters that run the engines are reached: they are not in the definition. */
export const ENGINE_CONTEXTS =
  'The clusters that run Argo CD or a hub Flux are not in the definition: set `ARGOCD_CONTEXT` or `FLUX_CONTEXT` to their kubeconfig context first (`export ARGOCD_CONTEXT=mgmt`).';

/** Per engine the definition names, its README section (`ReadmeWords.notesSection`); none for a ClusterSet delivered by hand. */
export const deliverySections = (definition: ClusterSet, clusters: readonly EffectiveCluster[]): string[] =>
  deliveryModes(definition, clusters).map((mode) => ENGINES[mode.engine].readme.notesSection(definition, clusters, mode));
