/**
 * Objects a GitOps engine must never prune or delete: the leader Namespace (deleting it
 * deletes every ResourceExport and member credential), CRDs (deleting one deletes every custom
 * resource of its kind), the member-side token source and the partial Gateway Nodes (deleting
 * a Node object drains the real Node). A member's credentials on the leader are not guarded:
 * removing the member must revoke them (prune-guards.ts). Each engine has its own annotation; both are always set.
 */
export const ARGOCD_SYNC_OPTIONS = 'argocd.argoproj.io/sync-options';
export const FLUX_PRUNE = 'kustomize.toolkit.fluxcd.io/prune';

export const GUARD_ANNOTATIONS: Readonly<Record<string, string>> = {
  [ARGOCD_SYNC_OPTIONS]: 'Prune=false,Delete=false',
  [FLUX_PRUNE]: 'disabled',
};

export const FLUX_SSA = 'kustomize.toolkit.fluxcd.io/ssa';

/**
 * Partial objects (Gateway Nodes) are patched with server-side apply, never replaced, and own
 * nothing but their keys: with `ssa: Merge` kustomize-controller leaves what kubectl set there (a
 * cordon while a Node drains, taints, labels, hand-set annotations). Without it, it hands every
 * `kubectl*` manager's fields to itself before each apply, and the apply removes them
 * (kustomize-controller `apply()` cleanup options; fluxcd/pkg ssa patch.go `matchFieldManager`).
 * Argo CD's server-side apply migrates only `kubectl-client-side-apply` (gitops-engine
 * sync_context.go `applyObject`), so a cordon stays there without more.
 */
export const PARTIAL_GUARD_ANNOTATIONS: Readonly<Record<string, string>> = {
  [ARGOCD_SYNC_OPTIONS]: 'Prune=false,Delete=false,ServerSideApply=true',
  [FLUX_PRUNE]: 'disabled',
  [FLUX_SSA]: 'Merge',
};

/** Whether an object carries both engines' guards. */
export function isGuarded(annotations: Readonly<Record<string, string>> | undefined): boolean {
  const argo = annotations?.[ARGOCD_SYNC_OPTIONS]?.split(',') ?? [];
  return argo.includes('Prune=false') && argo.includes('Delete=false') && annotations?.[FLUX_PRUNE] === 'disabled';
}
