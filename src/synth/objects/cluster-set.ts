import { EXPECTED_MEMBERS_ANNOTATION } from '../../health/cluster-set-health';
import type { KubeObject } from '../../kube/kube-object';

export interface LeaderClusterSetProps {
  /** ClusterSet ID, identical in every cluster */
  readonly name: string;
  /** leader controller Namespace */
  readonly namespace: string;
  readonly leaderClusterID: string;
  /** the leader's ClusterSet states spec.namespace (default); the user guide's YAML leaves it out */
  readonly statesNamespace?: boolean;
}

export interface LeaderOnlyProps extends LeaderClusterSetProps {
  /** how many clusters of the definition are members (the leader's own member side included) */
  readonly expectedMembers: number;
}

export interface MemberClusterSetProps extends LeaderClusterSetProps {
  /** member controller Namespace, where the ClusterSet and its token Secret live */
  readonly memberNamespace: string;
  readonly clusterID: string;
  /** leader API server URL */
  readonly server: string;
  /** name of the token Secret in the member Namespace */
  readonly secret: string;
}

/** Always v1alpha2: v1alpha1 lacks spec.clusterID and there is no conversion webhook. */
const API_VERSION = 'multicluster.crd.antrea.io/v1alpha2';

/**
 * The leader's ClusterSet: its own ID is the one leader; members register themselves. It carries
 * the member count the definition expects, which the leader's status cannot tell (health rules,
 * `clusterset status`).
 */
export const leaderClusterSet = (props: LeaderOnlyProps): KubeObject => ({
  apiVersion: API_VERSION,
  kind: 'ClusterSet',
  metadata: { name: props.name, namespace: props.namespace, annotations: { [EXPECTED_MEMBERS_ANNOTATION]: String(props.expectedMembers) } },
  spec: {
    clusterID: props.leaderClusterID,
    ...(props.statesNamespace !== false && { namespace: props.namespace }),
    leaders: [{ clusterID: props.leaderClusterID }],
  },
});

/** A member's ClusterSet: where the leader is and which Secret holds the token. */
export const memberClusterSet = (props: MemberClusterSetProps): KubeObject => ({
  apiVersion: API_VERSION,
  kind: 'ClusterSet',
  metadata: { name: props.name, namespace: props.memberNamespace },
  spec: {
    clusterID: props.clusterID,
    namespace: props.namespace,
    leaders: [{ clusterID: props.leaderClusterID, server: props.server, secret: props.secret }],
  },
});
