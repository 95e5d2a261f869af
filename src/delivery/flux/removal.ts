import { patchThenDeleteEach } from '../../kube/kubectl-command';

/**
 * The `kubectl patch` arguments that turn a Flux Kustomization's `spec.prune` off: deleting one with
 * prune on makes kustomize-controller delete everything in its inventory, Antrea included
 * (kustomization_controller.go, finalize), so an orphaned Kustomization is deleted only after this.
 */
export const PRUNE_OFF_PATCH = `--type merge -p '{"spec":{"prune":false}}'`;

/** Flux's Kustomization resource, by its full name. */
export const KUSTOMIZATION_RESOURCE = 'kustomizations.kustomize.toolkit.fluxcd.io';

/**
 * The labels every Flux Kustomization of a ClusterSet carries (kustomizations.ts `kustomization`,
 * the keys of engine-names.ts `LABELS`; test/validate/transitions/dissolve-steps.test.ts checks that
 * they select every one synth builds).
 */
export const fluxKustomizationsOf = (clusterSet: string): string => `app.kubernetes.io/managed-by=antrea-clusterset,antrea-clusterset/clusterset=${clusterSet}`;

/**
 * On the Flux of `context` (a shell word: quoted, or a variable in double quotes), each
 * Kustomization of `namespace` that `selector` (a shell word) lists: prune off, then delete
 * (PRUNE_OFF_PATCH says why).
 */
export const removeFluxKustomizations = (context: string, namespace: string, selector: string): string =>
  patchThenDeleteEach(context, namespace, KUSTOMIZATION_RESOURCE, selector, PRUNE_OFF_PATCH);
