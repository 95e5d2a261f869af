/** A kind of a dump: as `kubectl get` names it, and as objects name it (`group/Kind`, core kinds bare). */
export interface DumpKind {
  readonly resource: string;
  readonly kind: string;
}

const k = (resource: string, kind: string): DumpKind => ({ resource, kind });

/**
 * The kinds a live dump holds, per role. A member has no ResourceExport or MemberClusterAnnounce
 * CRD and a dedicated leader no ServiceExport or Tier CRD (upstream's
 * antrea-multicluster-member.yml and antrea-multicluster-leader-global.yml), and `kubectl get`
 * fails as a whole on an unknown type, so each role has its own list; a dual-role cluster takes both.
 */
const LEADER_KINDS: readonly DumpKind[] = [
  k('clustersets.multicluster.crd.antrea.io', 'multicluster.crd.antrea.io/ClusterSet'),
  k('memberclusterannounces.multicluster.crd.antrea.io', 'multicluster.crd.antrea.io/MemberClusterAnnounce'),
  k('resourceexports.multicluster.crd.antrea.io', 'multicluster.crd.antrea.io/ResourceExport'),
  k('namespaces', 'Namespace'),
  k('serviceaccounts', 'ServiceAccount'),
  // the token Secrets' names; the dump holds their tokens too (docs/adopt.md)
  k('secrets', 'Secret'),
  k('rolebindings', 'rbac.authorization.k8s.io/RoleBinding'),
  k('services', 'Service'),
  k('configmaps', 'ConfigMap'),
  k('deployments', 'apps/Deployment'),
  k('daemonsets', 'apps/DaemonSet'),
];

const MEMBER_KINDS: readonly DumpKind[] = [
  k('clustersets.multicluster.crd.antrea.io', 'multicluster.crd.antrea.io/ClusterSet'),
  k('serviceexports.multicluster.x-k8s.io', 'multicluster.x-k8s.io/ServiceExport'),
  k('tiers.crd.antrea.io', 'crd.antrea.io/Tier'),
  k('nodes', 'Node'),
  k('namespaces', 'Namespace'),
  k('serviceaccounts', 'ServiceAccount'),
  k('services', 'Service'),
  k('configmaps', 'ConfigMap'),
  k('deployments', 'apps/Deployment'),
  k('daemonsets', 'apps/DaemonSet'),
];

/**
 * The delivery engines' objects, read where the engine runs (the Argo CD or hub Flux cluster,
 * each cluster for one Flux per cluster): drift tells from their status whether the engine
 * syncs (drift-engine.ts). No bundle holds them, so plan --live compares none of them.
 */
export const ENGINE_KINDS: readonly DumpKind[] = [
  k('applications.argoproj.io', 'argoproj.io/Application'),
  k('kustomizations.kustomize.toolkit.fluxcd.io', 'kustomize.toolkit.fluxcd.io/Kustomization'),
];

/**
 * Kinds a cluster may serve or not: token sources a member may run, and the engines' objects.
 * read-context.ts and the drift workflow add each where the cluster's API serves it: a cluster
 * without the CRD is no error, its dump simply holds none.
 */
export const OPTIONAL_KINDS: readonly DumpKind[] = [
  k('externalsecrets.external-secrets.io', 'external-secrets.io/ExternalSecret'),
  k('sealedsecrets.bitnami.com', 'bitnami.com/SealedSecret'),
  ...ENGINE_KINDS,
];

export type DumpRole = 'leader' | 'member' | 'dual-role';

export function dumpKinds(role: DumpRole): readonly DumpKind[] {
  if (role === 'leader') return LEADER_KINDS;
  if (role === 'member') return MEMBER_KINDS;
  const seen = new Set<string>();
  return [...LEADER_KINDS, ...MEMBER_KINDS].filter((d) => !seen.has(d.resource) && seen.add(d.resource));
}

/** The one read-only command whose output is a dump. */
export const dumpCommand = (role: DumpRole, context = '<context>', file = '<cluster>.yaml'): string =>
  `kubectl --context ${context} get ${dumpKinds(role)
    .map((d) => d.resource)
    .join(',')} -A -o yaml > ${file}`;
