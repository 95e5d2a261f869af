import { ARGOCD_SYNC_OPTIONS, FLUX_PRUNE, GUARD_ANNOTATIONS, PARTIAL_GUARD_ANNOTATIONS } from '../guards';
import type { KubeObject } from '../kube-object';

/** `full`: never pruned or deleted; `partial`: the same, applied server-side (a patch of a live object). */
export type Guard = 'full' | 'partial';

/** Antrea >= v2.7 binds a member's leader ServiceAccount to its cluster ID with this annotation. */
const CLUSTER_ID_ANNOTATION = 'multicluster.antrea.io/cluster-id';
const SERVICE_ACCOUNT_NAME = 'kubernetes.io/service-account.name';

/** What a bundle says about its credentials, to recognise them by reference, not by name. */
export interface GuardContext {
  /** `namespace/name` of leader-side member ServiceAccounts */
  readonly memberAccounts: ReadonlySet<string>;
  /** `namespace/name` of the Secrets member ClusterSets read their leader token from */
  readonly tokenSecrets: ReadonlySet<string>;
}

const key = (namespace: unknown, name: unknown) => `${String(namespace ?? '')}/${String(name)}`;
const annotationsOf = (o: KubeObject) => (o.metadata.annotations ?? {}) as Readonly<Record<string, string>>;

export function guardContext(objects: readonly KubeObject[]): GuardContext {
  const memberAccounts = new Set<string>();
  const tokenSecrets = new Set<string>();
  for (const o of objects) {
    if (o.kind === 'ServiceAccount' && annotationsOf(o)[CLUSTER_ID_ANNOTATION]) memberAccounts.add(key(o.metadata.namespace, o.metadata.name));
    if (o.kind === 'ClusterSet') {
      const leaders = ((o.spec as { leaders?: { secret?: string }[] } | undefined)?.leaders ?? []);
      for (const l of leaders) if (l.secret) tokenSecrets.add(key(o.metadata.namespace, l.secret));
    }
  }
  return { memberAccounts, tokenSecrets };
}

/**
 * Which objects an engine must never prune or delete (guards.ts says why for each): Namespaces,
 * CRDs, member credentials on both sides, and the partial Gateway Nodes.
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
    case 'ServiceAccount':
      return ctx.memberAccounts.has(key(namespace, name)) ? 'full' : undefined;
    case 'Secret': {
      const account = o.type === 'kubernetes.io/service-account-token' ? annotationsOf(o)[SERVICE_ACCOUNT_NAME] : undefined;
      const isMemberToken = account !== undefined && ctx.memberAccounts.has(key(namespace, account));
      return isMemberToken || ctx.tokenSecrets.has(key(namespace, name)) ? 'full' : undefined;
    }
    case 'RoleBinding': {
      const subjects = (o.subjects ?? []) as { kind?: string; name?: string; namespace?: string }[];
      const bindsMember = subjects.some((s) => s.kind === 'ServiceAccount' && ctx.memberAccounts.has(key(s.namespace ?? namespace, s.name)));
      return bindsMember ? 'full' : undefined;
    }
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
    [ARGOCD_SYNC_OPTIONS]: mergeSyncOptions(annotations[ARGOCD_SYNC_OPTIONS], wanted[ARGOCD_SYNC_OPTIONS]!),
    [FLUX_PRUNE]: wanted[FLUX_PRUNE]!,
  };
}

function mergeSyncOptions(existing: string | undefined, wanted: string): string {
  const options = new Map<string, string>();
  const add = (list: string | undefined) => {
    for (const option of (list ?? '').split(',').map((s) => s.trim()).filter(Boolean)) options.set(option.split('=')[0]!, option);
  };
  add(existing);
  add(wanted);
  return [...options.values()].join(',');
}
