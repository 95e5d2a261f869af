import type { AntreaRelease } from '../release';
import { coreCrds, leaderCrds, memberCrds } from './crds';
import { clusterNetworkPolicySpec } from './crds/core';

/** Antrea v2.7.0: the release every other one is expressed against. */
export const v2_7_0: AntreaRelease = {
  version: 'v2.7.0',
  images: { agent: 'antrea-agent-ubuntu', controller: 'antrea-controller-ubuntu', mcController: 'antrea-mc-controller' },
  crds: { core: coreCrds, leader: leaderCrds, member: memberCrds },
  facts: {
    memberlistKeys: true,
    antreaNodeConfig: true,
    networkPolicyApi: 'ClusterNetworkPolicy',
    agentEventsApi: 'events.k8s.io',
    perMemberCredentials: true,
  },
  clusterNetworkPolicySpec,
};
