import { formatPath, validateAgainst } from '../../antrea/validator';
import type { ModelRule } from '../rule';
import { policySpecPath } from '../policy-fields';

export const policySchema: ModelRule = {
  id: 'policy-schema',
  severity: 'error',
  description: 'a policy spec is not a valid Antrea ClusterNetworkPolicy spec',
  validate({ definition, release, report }) {
    // an unsupported release is reported by unsupported-antrea-version; there is no schema to check against
    if (!release) return;
    definition.spec.policies.forEach((policy, i) => {
      // the same structural schema, with strict fields, that the members' API servers of this release apply to antrea-mc-<name>
      for (const issue of validateAgainst(release.clusterNetworkPolicySpec, policy.spec)) {
        const unknownField = issue.message.startsWith('unknown field');
        report({
          path: [...policySpecPath(i), ...issue.path],
          key: unknownField,
          message: `policy "${policy.name}": ${issue.path.length ? `${formatPath(issue.path)} ` : ''}${issue.message}`,
          hint: unknownField
            ? 'check the spelling against the ClusterNetworkPolicy spec (crd.antrea.io/v1beta1)'
            : 'write spec as an Antrea ClusterNetworkPolicy spec (crd.antrea.io/v1beta1); members reject an invalid one',
        });
      }
    });
  },
};
