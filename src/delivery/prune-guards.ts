import type { KubeObject } from '../kube/kube-object';
import { ALL_ENGINES } from './registry';

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
 * Which objects an engine must never prune or delete: the leader Namespace (deleting it deletes
 * every ResourceExport and member credential), CRDs (deleting one deletes every custom resource of
 * its kind), the member-side token source and the partial Gateway Nodes (deleting a Node object
 * drains the real Node). Each engine writes its own guard (`EngineObjects.guard`); every engine's
 * is always set.
 *
 * A member's credentials on the leader (its ServiceAccount, token Secret and RoleBinding) are
 * deliberately not guarded: removing the member from the definition removes them from the
 * leader's bundle, and the engine prunes them, which revokes the member's token. Renaming the
 * ClusterSet or moving its engine objects does not prune them: the layer Kustomizations are
 * guarded themselves (flux/kustomizations.ts), so their inventory is orphaned, not deleted.
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

/** Every engine's guard merged into existing annotations (argocd/guards.ts, flux/guards.ts); idempotent. */
export const withGuard = (annotations: Readonly<Record<string, string>>, guard: Guard): Record<string, string> =>
  ALL_ENGINES.reduce<Record<string, string>>((a, e) => e.objects.guard(a, guard), { ...annotations });

/** Whether an object carries every engine's guard. */
export const isGuarded = (annotations: Readonly<Record<string, string>> | undefined): boolean => ALL_ENGINES.every((e) => e.objects.isGuarded(annotations));
