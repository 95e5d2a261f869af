import { members } from '../../model/effective';
import { MemberCredentials } from '../constructs/member-credentials';
import type { BundlePart } from './context';

/** On the leader, one bound ServiceAccount, token Secret and RoleBinding per member (a dual-role leader included). */
export const memberCredentials: BundlePart = (chart, { definition, clusters, cluster }) => {
  if (!cluster.isLeader) return;
  for (const member of members(clusters)) {
    new MemberCredentials(chart, `member-credentials-${member.clusterID}`, {
      clusterID: member.clusterID,
      namespace: definition.spec.leader.namespace,
    });
  }
};
