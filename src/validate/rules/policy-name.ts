import { isDns1123Subdomain, LABEL_VALUE_MAX } from '../kube-names';
import type { ModelRule } from '../rule';

/** Members create each replicated policy as antrea-mc-<name>. */
const IMPORTED_PREFIX = 'antrea-mc-';

export const policyName: ModelRule = {
  id: 'policy-name',
  severity: 'error',
  description: 'duplicate policy names, or a name that gives no valid antrea-mc-<name> object',
  validate({ definition, report }) {
    const first = new Map<string, number>();
    definition.spec.policies.forEach((policy, i) => {
      const path = ['spec', 'policies', i, 'name'];
      const earlier = first.get(policy.name);
      if (earlier !== undefined) {
        // the leader only updates an import while exactly one export carries the name
        report({
          path,
          message: `policy "${policy.name}" is declared twice`,
          hint: 'policy names are unique in a ClusterSet; rename or merge one of them',
          related: [{ path: ['spec', 'policies', earlier, 'name'], message: `policy "${policy.name}" is first declared here` }],
        });
        return;
      }
      first.set(policy.name, i);
      const imported = `${IMPORTED_PREFIX}${policy.name}`;
      // the leader's ResourceExport is <name>-for-<clusterset>, and the name is also a label value
      if (!isDns1123Subdomain(imported) || !isDns1123Subdomain(`${policy.name}-x`)) {
        report({
          path,
          message: `policy "${policy.name}" would be created as "${imported}", which is not a valid object name`,
          hint: 'use lower-case letters, digits, "-" and ".", starting and ending with a letter or digit',
        });
      } else if (policy.name.length > LABEL_VALUE_MAX) {
        // the leader webhook copies the name into the ResourceExport's sourceName label
        report({
          path,
          message: `policy name "${policy.name}" is ${policy.name.length} characters long (at most ${LABEL_VALUE_MAX})`,
          hint: `shorten it to ${LABEL_VALUE_MAX} characters: the leader stores it as a label value`,
        });
      }
    });
  },
};
