import { isPlainObject } from '../../antrea/workloads/deep-merge';
import type { DataPath } from '../../diagnostics/diagnostic';
import { labelKeyProblem, labelValueProblem } from '../kube-names';
import { policySpecPath } from '../policy-fields';
import type { ModelRule, Report } from '../rule';

/**
 * Label keys and values in the policies' selectors (`matchLabels`, `matchExpressions`, the
 * `sameLabels` of a namespaces peer), checked as Antrea's policy webhook does
 * (pkg/controller/networkpolicy/validate.go, `checkSelectorsLabels` and `validatePeers`:
 * apimachinery's IsQualifiedName and IsValidLabelValue): the CRD schema only says "string", so
 * every member would refuse the replicated policy.
 */
export const labelSyntax: ModelRule = {
  id: 'label-syntax',
  severity: 'error',
  description: 'a label key or value in a policy selector is not valid Kubernetes label syntax',
  validate({ definition, report }) {
    definition.spec.policies.forEach((policy, i) => walk(policy.spec, policySpecPath(i), policy.name, report));
  },
};

function walk(value: unknown, path: DataPath, policy: string, report: (r: Report) => void): void {
  if (Array.isArray(value)) {
    value.forEach((v, i) => walk(v, [...path, i], policy, report));
    return;
  }
  if (!isPlainObject(value)) return;
  for (const [key, child] of Object.entries(value)) {
    const at = [...path, key];
    if (key === 'matchLabels' && isPlainObject(child)) {
      for (const [label, v] of Object.entries(child)) {
        checkKey(label, [...at, label], policy, report);
        if (typeof v === 'string') checkValue(v, [...at, label], policy, report);
      }
    } else if (key === 'matchExpressions' && Array.isArray(child)) {
      child.forEach((e, j) => {
        if (!isPlainObject(e)) return;
        if (typeof e.key === 'string') checkKey(e.key, [...at, j, 'key'], policy, report, false);
        if (Array.isArray(e.values)) e.values.forEach((v, k) => typeof v === 'string' && checkValue(v, [...at, j, 'values', k], policy, report));
      });
    } else if (key === 'sameLabels' && Array.isArray(child)) {
      child.forEach((k, j) => typeof k === 'string' && checkKey(k, [...at, j], policy, report, false));
    } else walk(child, at, policy, report);
  }
}

const HINT = 'a label key is an optional DNS subdomain and "/" before a name of at most 63 letters, digits, "-", "_" and "."; a value is empty or such a name';

function checkKey(key: string, path: DataPath, policy: string, report: (r: Report) => void, isMapKey = true): void {
  const problem = labelKeyProblem(key);
  if (problem) report({ path, key: isMapKey, message: `policy "${policy}": label key "${key}" is not valid: ${problem}`, hint: HINT });
}

function checkValue(value: string, path: DataPath, policy: string, report: (r: Report) => void): void {
  const problem = labelValueProblem(value);
  if (problem) report({ path, message: `policy "${policy}": label value "${value}" is not valid: ${problem}`, hint: HINT });
}
