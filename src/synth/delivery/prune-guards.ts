import { ARGOCD_SYNC_OPTIONS, GUARD_ANNOTATIONS, PARTIAL_GUARD_ANNOTATIONS } from '../guards';
import type { KubeObject } from '../../kube/kube-object';

/** `full`: never pruned or deleted; `partial`: the same, applied server-side (a patch of a live object). */
export type Guard = 'full' | 'partial';

/** What a bundle says about its credentials, to recognise them by reference, not by name. */
export interface GuardContext {
  /** `namespace/name` of the Secrets member ClusterSets read their leader token from */
  readonly tokenSecrets: ReadonlySet<string>;
}

const key = (namespace: string | undefined, name: string) => `${namespace ?? ''}/${name}`;

export function guardContext(objects: readonly KubeObject[]): GuardContext {
  const tokenSecrets = new Set<string>();
  for (const o of objects) {
    if (o.kind === 'ClusterSet') {
      const leaders = (o.spec as { leaders?: { secret?: string }[] } | undefined)?.leaders ?? [];
      for (const l of leaders) if (l.secret) tokenSecrets.add(key(o.metadata.namespace, l.secret));
    }
  }
  return { tokenSecrets };
}

/**
 * Which objects an engine must never prune or delete (guards.ts says why for each): Namespaces,
 * CRDs, the member-side token source, and the partial Gateway Nodes.
 *
 * A member's credentials on the leader (its ServiceAccount, token Secret and RoleBinding) are
 * deliberately not guarded: removing the member from the definition removes them from the
 * leader's bundle, and the engine prunes them, which revokes the member's token. Renaming the
 * ClusterSet or moving its engine objects does not prune them: the layer Kustomizations are
 * guarded themselves (flux.ts), so their inventory is orphaned, not deleted.
 */
export function guardOf(o: KubeObject, ctx: GuardContext): Guard | undefined {
  const { namespace, name } = o.metadata;
  switch (o.kind) {
    case 'Namespace':
    case 'CustomResourceDefinition':
      return 'full';
    case 'Node':
      return 'partial';
    // a bundle holds these only as the source of a member's leader token
    case 'ExternalSecret':
    case 'SealedSecret':
      return 'full';
    case 'Secret':
      return ctx.tokenSecrets.has(key(namespace, name)) ? 'full' : undefined;
    default:
      return undefined;
  }
}

/**
 * The guard merged into existing annotations. Idempotent: other sync options keep their place,
 * a guard option replaces its own key (`Prune=true` becomes `Prune=false`), missing ones append.
 */
export function withGuard(annotations: Readonly<Record<string, string>>, guard: Guard): Record<string, string> {
  const wanted = guard === 'partial' ? PARTIAL_GUARD_ANNOTATIONS : GUARD_ANNOTATIONS;
  return {
    ...annotations,
    ...wanted,
    [ARGOCD_SYNC_OPTIONS]: mergeSyncOptions(annotations[ARGOCD_SYNC_OPTIONS], wanted[ARGOCD_SYNC_OPTIONS]!),
  };
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
