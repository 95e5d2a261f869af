import { SHARED_MEMBER_ACCESS_SA } from '../antrea/workloads/mc-rbac';
import { memberTokenName, rotatedName } from '../model/default-names';
import { CLUSTER_ID_ANNOTATION, MEMBER_ROLE } from '../synth/objects/member-credentials';
import { field, indexBy, text, type LiveCluster, type LiveClusterSet } from './live-cluster';
import type { LiveObject } from './read-dump';

/** What a member reaches its leader with, as the leader's dump shows it. */
export interface RunningCredentials {
  readonly serviceAccount: string;
  /** the leader's `service-account-token` Secret of that ServiceAccount */
  readonly secret: string;
  /** the RoleBinding to the member Role naming the ServiceAccount, if the dump has one */
  readonly roleBinding?: string;
  /**
   * the ServiceAccount is not this member's alone: another member reaches the leader with it too,
   * or it is the shared `antrea-mc-member-access-sa` the leader manifest ships before v2.7
   */
  readonly shared: boolean;
}

const TOKEN_SECRET = 'kubernetes.io/service-account-token';
const SA_NAME = 'kubernetes.io/service-account.name';

/** The Secret a member's ClusterSet reads its leader token from (`spec.leaders[0].secret`, in the member's Namespace). */
export const memberSecretName = (c: LiveCluster): string | undefined => text(c.memberSet?.object, 'spec', 'leaders', 0, 'secret');

/**
 * Each member's credentials on the leader, whatever made them: the user guide or antctl of any
 * release, or this compiler. Found from both sides, in this order:
 *
 * 1. the member's ClusterSet names its token Secret; the guide and antctl copy the leader's
 *    Secret under the same name, and that Secret names its ServiceAccount
 *    (`kubernetes.io/service-account.name`), unless v2.7 binds that ServiceAccount to another member;
 * 2. the ServiceAccount annotated with the member's cluster ID (v2.7: the leader admits the member
 *    only through it, multicluster/cmd/multicluster-controller/memberclusterannounce_webhook.go);
 * 3. the compiler's own names (`<clusterID>-member-token`).
 *
 * The RoleBinding is the one to the member Role whose subjects name the ServiceAccount. A member
 * without any is absent from the map.
 */
export function runningCredentials(set: LiveClusterSet): Map<string, RunningCredentials> {
  const leader = set.leader;
  const namespace = leader.leaderSet!.object.metadata.namespace ?? '';
  const inNamespace = (kind: string) => leader.ofKind(kind).filter((l) => l.object.metadata.namespace === namespace);
  const accounts = new Map(inNamespace('ServiceAccount').map((l) => [l.object.metadata.name, l]));
  const tokens = inNamespace('Secret').filter((l) => (l.object as { type?: unknown }).type === TOKEN_SECRET);
  const tokenByName = new Map(tokens.map((l) => [l.object.metadata.name, l]));
  const tokensOf = indexBy(tokens, (l) => [l.object.metadata.annotations?.[SA_NAME]]);
  const boundTo = (sa: LiveObject | undefined) => sa?.object.metadata.annotations?.[CLUSTER_ID_ANNOTATION];
  const byClusterID = indexBy([...accounts.values()], (l) => [boundTo(l)]);
  const bindings = indexBy(
    inNamespace('rbac.authorization.k8s.io/RoleBinding').filter((l) => text(l.object, 'roleRef', 'name') === MEMBER_ROLE),
    (l) => {
      const subjects = field(l.object, 'subjects');
      return Array.isArray(subjects)
        ? subjects.filter((s) => text(s, 'kind') === 'ServiceAccount' && (text(s, 'namespace') ?? namespace) === namespace).map((s) => text(s, 'name'))
        : [];
    },
  );

  const found = new Map<string, { serviceAccount: string; secret: string }>();
  for (const c of set.clusters) {
    if (!c.memberSet) continue;
    const id = c.clusterID;
    // a token Secret whose ServiceAccount the dump holds, and that v2.7 has not bound to another member
    const usable = (secret: LiveObject | undefined) => {
      const sa = secret?.object.metadata.annotations?.[SA_NAME];
      const account = sa === undefined ? undefined : accounts.get(sa);
      if (!account) return undefined;
      const bound = boundTo(account);
      return bound === undefined || bound === id ? { serviceAccount: sa!, secret: secret!.object.metadata.name } : undefined;
    };
    const read = memberSecretName(c);
    const annotated = byClusterID.get(id)?.[0]?.object.metadata.name;
    const ofAnnotated = annotated === undefined ? [] : (tokensOf.get(annotated) ?? []);
    // a rotated token (tokenSecret.rotation): the member reads <name>-r<n>, the leader holds <secret>-r<n>
    // beside the older one until the checklist revokes it; the one of the member's rotation is the running one
    const rotation = /-r([1-9][0-9]*)$/.exec(read ?? '')?.[0];
    const ofRotation = (l: LiveObject) => (rotation === undefined ? !/-r[1-9][0-9]*$/.test(l.object.metadata.name) : l.object.metadata.name.endsWith(rotation));
    const credentials =
      usable(read === undefined ? undefined : tokenByName.get(read)) ??
      usable(ofAnnotated.find((l) => l.object.metadata.name === read) ?? ofAnnotated.find(ofRotation) ?? ofAnnotated[0]) ??
      usable(tokenByName.get(rotatedName(memberTokenName(id), rotation === undefined ? 0 : Number(rotation.slice(2))))) ??
      usable(tokenByName.get(memberTokenName(id)));
    if (credentials) found.set(id, credentials);
  }
  const members = indexBy([...found.entries()], ([, f]) => [f.serviceAccount]);
  return new Map(
    [...found].map(([id, f]) => {
      const roleBinding = bindings.get(f.serviceAccount)?.[0]?.object.metadata.name;
      const shared = f.serviceAccount === SHARED_MEMBER_ACCESS_SA || members.get(f.serviceAccount)!.length > 1;
      return [id, { ...f, ...(roleBinding !== undefined && { roleBinding }), shared }];
    }),
  );
}
