import { members } from '../../model/effective';
import type { ModelRule } from '../rule';

export const stretchedPolicyEncap: ModelRule = {
  id: 'stretched-policy-encap',
  severity: 'error',
  description: 'stretchedNetworkPolicy is on for a member that is not in encap mode',
  validate({ clusters, report }) {
    const reported = new Set<string>();
    for (const c of members(clusters)) {
      // ingress rules with ClusterSet-scoped peers only work in encap (antrea docs/multicluster/user-guide.md)
      if (!c.network.stretchedNetworkPolicy || c.network.trafficEncapMode === 'encap') continue;
      const path = c.networkPath('trafficEncapMode');
      if (reported.has(JSON.stringify(path))) continue;
      reported.add(JSON.stringify(path));
      report({
        path,
        message: `cluster "${c.clusterID}" uses trafficEncapMode "${c.network.trafficEncapMode}" with stretchedNetworkPolicy on`,
        hint: 'stretched NetworkPolicy needs trafficEncapMode "encap" in every member; switch the mode or turn stretchedNetworkPolicy off',
        related: [{ path: c.networkPath('stretchedNetworkPolicy'), message: 'stretchedNetworkPolicy is turned on here' }],
      });
    }
  },
};
