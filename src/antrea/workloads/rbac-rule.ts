import type { IPolicyRule } from 'kubernetes-models/rbac.authorization.k8s.io/v1/PolicyRule';

/** One RBAC rule; `''` is the core API group. */
export function rule(apiGroups: readonly string[], resources: readonly string[], verbs: readonly string[], resourceNames?: readonly string[]): IPolicyRule {
  return {
    apiGroups: [...apiGroups],
    resources: [...resources],
    ...(resourceNames && { resourceNames: [...resourceNames] }),
    verbs: [...verbs],
  };
}

export const READ = ['get', 'watch', 'list'] as const;
/** every verb, in the order the chart lists them */
export const ALL = ['get', 'watch', 'list', 'update', 'patch', 'create', 'delete'] as const;
/** every verb, in the order kubebuilder generates them (multi-cluster roles) */
export const CRUD = ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'] as const;
