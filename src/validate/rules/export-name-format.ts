import { dns1123LabelProblem } from '../kube-names';
import type { ModelRule } from '../rule';
import { servicePath } from '../exports';

export const exportNameFormat: ModelRule = {
  id: 'export-name-format',
  severity: 'error',
  description: 'an exported Service name or Namespace is not an RFC-1123 label',
  check({ definition, report }) {
    definition.spec.services.forEach((service, i) => {
      // the leader webhook checks both as DNS-1123 labels (ResourceExport validation)
      for (const field of ['namespace', 'name'] as const) {
        const value = service[field];
        const problem = dns1123LabelProblem(value);
        if (!problem) continue;
        report({
          path: servicePath(i, field),
          message: `service ${field} "${value}" is not an RFC-1123 label: it ${problem}`,
          hint: 'use at most 63 lower-case letters, digits and "-", starting and ending with a letter or digit',
        });
      }
    });
  },
};
