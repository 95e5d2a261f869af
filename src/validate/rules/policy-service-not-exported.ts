import { exportingMembers } from '../exports';
import { clusterSetScopes, policySpecPath } from '../policy-fields';
import type { ModelRule } from '../rule';

export const policyServiceNotExported: ModelRule = {
  id: 'policy-service-not-exported',
  severity: 'warning',
  description: 'a toServices entry with scope: ClusterSet names a Service that no member exports',
  validate({ definition, clusters, report }) {
    const exported = new Set(definition.spec.services.filter((s) => exportingMembers(s, clusters).length > 0).map((s) => `${s.namespace}/${s.name}`));
    definition.spec.policies.forEach((policy, i) => {
      for (const scope of clusterSetScopes(policy.spec, policySpecPath(i))) {
        if (scope.kind !== 'toService' || !scope.service) continue;
        const key = `${scope.service.namespace}/${scope.service.name}`;
        if (exported.has(key)) continue;
        // the rule matches the imported antrea-mc-<name> Service, which only exists for exports
        report({
          path: scope.path.slice(0, -1).concat('name'),
          message: `policy "${policy.name}" refers to the multi-cluster Service "${key}", which no member exports`,
          hint: `add "${key}" to spec.services with the clusters that export it, or use scope "Cluster"`,
        });
      }
    });
  },
};
