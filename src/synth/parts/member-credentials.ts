import { members } from '../../model/effective';
import { memberCredentials as credentialsOf } from '../objects/member-credentials';
import type { BundlePart } from './context';

/** On the leader, one ServiceAccount (bound to the member's ID where the release binds it), token Secret and RoleBinding per member (a dual-role leader included). */
export const memberCredentials: BundlePart = ({ definition, clusters, cluster, release }) =>
  cluster.isLeader
    ? members(clusters).flatMap((member) =>
        credentialsOf({
          clusterID: member.clusterID,
          namespace: definition.spec.leader.namespace,
          bindClusterID: release.facts.perMemberCredentials,
          // at a rotation, a new token Secret of the same ServiceAccount (the old one: the plan's checklist)
          names: { ...member.leaderCredentials, secret: member.leaderTokenName },
        }),
      )
    : [];
