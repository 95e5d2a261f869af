import type { Guard } from '../prune-guards';

export const FLUX_PRUNE = 'kustomize.toolkit.fluxcd.io/prune';
export const FLUX_SSA = 'kustomize.toolkit.fluxcd.io/ssa';

/**
 * Flux's post-build substitution (fluxcd/pkg kustomize/kustomize_varsub.go, its envsubst) blanks `${var}`
 * and turns `$$` into `$` in objects when a Kustomization sets postBuild; ours never do, users' might.
 */
export const FLUX_SUBSTITUTE = 'kustomize.toolkit.fluxcd.io/substitute';

/**
 * Flux's guard (prune-guards.ts says which objects get one): `prune: disabled` keeps kustomize-controller's
 * garbage collection off the object (kustomization_controller.go, deleteObjects' exclusions).
 * Partial objects (Gateway Nodes) are patched with server-side apply and own nothing but their
 * keys: with `ssa: Merge` kustomize-controller leaves what kubectl set there (a cordon while a Node
 * drains, taints, labels, hand-set annotations). Without it, it hands every `kubectl*` manager's
 * fields to itself before each apply, and the apply removes them (kustomize-controller `apply()`
 * cleanup options; fluxcd/pkg ssa patch.go `matchFieldManager`).
 */
export const withFluxGuard = (annotations: Readonly<Record<string, string>>, guard: Guard): Record<string, string> => ({
  ...annotations,
  [FLUX_PRUNE]: 'disabled',
  ...(guard === 'partial' && { [FLUX_SSA]: 'Merge' }),
});

export const isFluxGuarded = (annotations: Readonly<Record<string, string>> | undefined): boolean => annotations?.[FLUX_PRUNE] === 'disabled';
