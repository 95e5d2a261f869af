import type { KubeObject } from '../../kube/kube-object';
import { serviceAccountBinding } from '../../kube/rbac';
import { memberTokenName } from '../../model/default-names';

export interface MemberCredentialsProps {
  /** the member cluster the credentials are bound to */
  readonly clusterID: string;
  /** leader controller Namespace */
  readonly namespace: string;
  /** names kept from a running ClusterSet (the user guide's `member-east`/`member-east-token`); default memberTokenName */
  readonly names?: { readonly serviceAccount?: string; readonly secret?: string; readonly roleBinding?: string };
  /**
   * annotate the ServiceAccount with the member's cluster ID, which a v2.7 leader requires (its
   * MemberClusterAnnounce webhook admits a member only through a ServiceAccount carrying its ID,
   * and its ResourceExport webhook binds the member's exports to it:
   * multicluster/cmd/multicluster-controller/memberclusterannounce_webhook.go and
   * resourceexport_webhook.go, Handle) and no earlier release reads: before v2.7 the object is the
   * user guide's, so adopting a ClusterSet leaves it as it runs, and the move to v2.7 adds it
   */
  readonly bindClusterID: boolean;
}

/** Role shipped by the leader manifest for member controllers. */
export const MEMBER_ROLE = 'antrea-mc-member-cluster-role';
/** Antrea >= v2.7 admits a member's requests only from a ServiceAccount carrying its ID here (ReleaseFacts.perMemberCredentials). */
export const CLUSTER_ID_ANNOTATION = 'multicluster.antrea.io/cluster-id';

/**
 * A member's identity in the leader's common area: the ServiceAccount bound to its cluster ID,
 * the long-lived token Secret kube-controller-manager fills in (so no token ever passes through
 * git), and the RoleBinding to the member Role. All guarded: pruning them cuts the member off.
 */
export function memberCredentials(props: MemberCredentialsProps): KubeObject[] {
  const name = memberTokenName(props.clusterID);
  const serviceAccount = props.names?.serviceAccount ?? name;
  const namespace = props.namespace;
  return [
    {
      apiVersion: 'v1',
      kind: 'ServiceAccount',
      metadata: { name: serviceAccount, namespace, ...(props.bindClusterID && { annotations: { [CLUSTER_ID_ANNOTATION]: props.clusterID } }) },
    },
    // no data: the token controller writes ca.crt, namespace and token
    {
      apiVersion: 'v1',
      kind: 'Secret',
      type: 'kubernetes.io/service-account-token',
      metadata: { name: props.names?.secret ?? name, namespace, annotations: { 'kubernetes.io/service-account.name': serviceAccount } },
    },
    serviceAccountBinding(
      'RoleBinding',
      { name: props.names?.roleBinding ?? name, namespace },
      { kind: 'Role', name: MEMBER_ROLE },
      { name: serviceAccount, namespace },
    ),
  ];
}
