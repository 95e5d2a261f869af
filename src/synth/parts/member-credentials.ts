import { members } from '../../model/effective';
import { memberCredentials as credentialsOf } from '../objects/member-credentials';
import type { BundlePart } from './context';

/** On the leader, one bound ServiceAccount, token Secret and RoleBinding per member (a dual-role leader included). */
export const memberCredentials: BundlePart = ({ definition, clusters, cluster }) =>
  cluster.isLeader
    ? members(clusters).flatMap((member) =>
        credentialsOf({
          clusterID: member.clusterID,
          namespace: definition.spec.leader.namespace,
          ...(member.leaderCredentials && { names: member.leaderCredentials }),
        }),
      )
    : [];
