import type { Guard } from '../prune-guards';

export const ARGOCD_SYNC_OPTIONS = 'argocd.argoproj.io/sync-options';

/**
 * Argo CD's guard (prune-guards.ts says which objects get one): never pruned, never deleted with
 * its Application (gitops-engine sync_context.go reads `Prune=false` and `Delete=false`). A partial
 * object (a Gateway Node) is also applied server-side: Argo CD's server-side apply migrates only
 * `kubectl-client-side-apply` (gitops-engine sync_context.go `applyObject`), so a cordon stays.
 */
const OPTIONS: Readonly<Record<Guard, string>> = {
  full: 'Prune=false,Delete=false',
  partial: 'Prune=false,Delete=false,ServerSideApply=true',
};

/**
 * The guard merged into existing annotations. Idempotent: other sync options keep their place,
 * a guard option replaces its own key (`Prune=true` becomes `Prune=false`), missing ones append.
 */
export function withArgoCdGuard(annotations: Readonly<Record<string, string>>, guard: Guard): Record<string, string> {
  return { ...annotations, [ARGOCD_SYNC_OPTIONS]: mergeSyncOptions(annotations[ARGOCD_SYNC_OPTIONS], OPTIONS[guard]) };
}

export function isArgoCdGuarded(annotations: Readonly<Record<string, string>> | undefined): boolean {
  const options = annotations?.[ARGOCD_SYNC_OPTIONS]?.split(',') ?? [];
  return options.includes('Prune=false') && options.includes('Delete=false');
}

function mergeSyncOptions(existing: string | undefined, wanted: string): string {
  const options = new Map<string, string>();
  const add = (list: string | undefined) => {
    for (const option of (list ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean))
      options.set(option.split('=')[0]!, option);
  };
  add(existing);
  add(wanted);
  return [...options.values()].join(',');
}
