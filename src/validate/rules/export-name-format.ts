import { servicePath } from '../exports';
import { LABEL_HINT, labelProblem, suggestLabel } from '../rfc1123';
import type { ModelRule } from '../rule';

export const exportNameFormat: ModelRule = {
  id: 'export-name-format',
  severity: 'error',
  description: 'an exported Service name is not an RFC-1035 label or its Namespace not an RFC-1123 label',
  validate({ definition, report }) {
    definition.spec.services.forEach((service, i) => {
      // the leader webhook checks both as DNS-1123 labels (ResourceExport validation)
      for (const field of ['namespace', 'name'] as const) {
        const value = service[field];
        // a Service name is an RFC 1035 label (apimachinery ValidateServiceName: NameIsDNS1035Label), so it starts with a letter
        const problem = labelProblem(value) ?? (field === 'name' && !/^[a-z]/.test(value) ? 'a Service name must start with a letter (RFC 1035)' : undefined);
        if (!problem) continue;
        const suggestion = suggestLabel(value);
        report({
          path: servicePath(i, field),
          message: `service ${field} "${value}" is not an ${field === 'name' ? 'RFC-1035' : 'RFC-1123'} label: ${problem}`,
          hint: suggestion ? `did you mean "${suggestion}"? (${LABEL_HINT})` : LABEL_HINT,
        });
      }
    });
  },
};
