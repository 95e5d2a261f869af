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

/** Partial objects (Gateway Nodes) are patched with server-side apply, never replaced. */
export const PARTIAL_GUARD_ANNOTATIONS: Readonly<Record<string, string>> = {
  [ARGOCD_SYNC_OPTIONS]: 'Prune=false,Delete=false,ServerSideApply=true',
  [FLUX_PRUNE]: 'disabled',
};

/** Whether an object carries both engines' guards. */
export function isGuarded(annotations: Readonly<Record<string, string>> | undefined): boolean {
  const argo = annotations?.[ARGOCD_SYNC_OPTIONS]?.split(',') ?? [];
  return argo.includes('Prune=false') && argo.includes('Delete=false') && annotations?.[FLUX_PRUNE] === 'disabled';
}
