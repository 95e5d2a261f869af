import { members } from '../../model/effective';
import { clusterSetScopes, policySpecPath } from '../policy-fields';
import type { ModelRule } from '../rule';

export const policyClusterSetScopeDisabled: ModelRule = {
  id: 'policy-clusterset-scope-disabled',
  severity: 'error',
  description: 'a policy uses scope: ClusterSet while stretchedNetworkPolicy is off for a member',
  validate({ definition, clusters, report }) {
    const off = members(clusters).find((c) => !c.network.stretchedNetworkPolicy);
    if (!off) return;
    definition.spec.policies.forEach((policy, i) => {
      for (const scope of clusterSetScopes(policy.spec, policySpecPath(i))) {
        // antrea-controller drops such rules with only a log line when the flag is off
        report({
          path: scope.path,
          message: `policy "${policy.name}" uses scope "ClusterSet" in ${scope.kind === 'peer' ? 'an ingress peer' : 'toServices'}, but stretchedNetworkPolicy is off for cluster "${off.clusterID}"`,
          hint: 'set spec.network.stretchedNetworkPolicy: true (needs trafficEncapMode "encap"), or use scope "Cluster"',
          related: [{ path: off.networkPath('stretchedNetworkPolicy'), message: `stretchedNetworkPolicy is off for cluster "${off.clusterID}"` }],
        });
      }
    });
  },
};
