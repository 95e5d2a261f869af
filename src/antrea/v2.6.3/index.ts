import { deriveRelease } from '../derive';
import { v2_7_0 } from '../v2.7.0';
import { core } from './crds';

/** Antrea v2.6.3, as its differences from v2.7.0. */
export const v2_6_3 = deriveRelease(v2_7_0, {
  version: 'v2.6.3',
  crds: { core },
  facts: {
    memberlistKeys: false,
    antreaNodeConfig: false,
    networkPolicyApi: 'AdminNetworkPolicy',
    perMemberCredentials: false,
  },
  featureGates: { agent: { remove: ['AntreaNodeConfig'] }, controller: { remove: ['ClusterNetworkPolicy'] } },
});
