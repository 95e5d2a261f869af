import type { ApiServer } from './api-server';
import type { Obj } from './kube';

/** Who a request comes from, as kube-apiserver's authenticators name it. */
export interface User {
  readonly name: string;
  readonly groups: readonly string[];
}

/** The user of a ServiceAccount (k8s.io/apiserver pkg/authentication/serviceaccount: MakeUsername, MakeGroupNames). */
export const serviceAccountUser = (namespace: string, name: string): User => ({
  name: `system:serviceaccount:${namespace}:${name}`,
  groups: ['system:serviceaccounts', `system:serviceaccounts:${namespace}`, 'system:authenticated'],
});

/** `system:serviceaccount:<ns>:<name>` back into its parts (serviceaccount.SplitUsername), or undefined. */
export function splitServiceAccount(user: User): { namespace: string; name: string } | undefined {
  const m = /^system:serviceaccount:([^:]+):([^:]+)$/.exec(user.name);
  return m ? { namespace: m[1]!, name: m[2]! } : undefined;
}

/**
 * A bearer token as kube-apiserver's legacy ServiceAccount token authenticator reads it
 * (kubernetes pkg/serviceaccount/legacy.go, legacyValidator.Validate): the token of a
 * `kubernetes.io/service-account-token` Secret that still exists, whose ServiceAccount (its
 * `kubernetes.io/service-account.name` annotation) still exists. Anything else is 401.
 */
export function authenticate(c: ApiServer, token: string | undefined): User | undefined {
  if (!token) return undefined;
  for (const s of c.list('Secret')) {
    if (s.type !== 'kubernetes.io/service-account-token' || (s.data as Record<string, string> | undefined)?.token !== token || s.metadata.deletionTimestamp)
      continue;
    const sa = s.metadata.annotations?.['kubernetes.io/service-account.name'];
    if (sa && c.get('v1', 'ServiceAccount', s.metadata.namespace, sa)) return serviceAccountUser(s.metadata.namespace!, sa);
  }
  return undefined;
}

export interface RequestAttributes {
  readonly verb: string;
  readonly group: string;
  /** the plural resource, with `/subresource` where there is one */
  readonly resource: string;
  readonly namespace?: string;
  /** the object's name; a list or watch with a `metadata.name` field selector carries it too */
  readonly name?: string;
}

interface Rule {
  apiGroups?: string[];
  resources?: string[];
  resourceNames?: string[];
  verbs?: string[];
}

const has = (list: readonly string[] | undefined, v: string): boolean => (list ?? []).includes('*') || (list ?? []).includes(v);

/** rbac/v1 evaluation_helpers.go RuleAllows: verb, group, resource (or `*`), and resourceNames when the rule names any. */
const ruleAllows = (rule: Rule, a: RequestAttributes): boolean =>
  has(rule.verbs, a.verb) &&
  has(rule.apiGroups, a.group) &&
  (has(rule.resources, a.resource) || (a.resource.includes('/') && (rule.resources ?? []).includes(`*/${a.resource.split('/')[1]!}`))) &&
  ((rule.resourceNames ?? []).length === 0 || (a.name !== undefined && rule.resourceNames!.includes(a.name)));

const bound = (binding: Obj, user: User): boolean =>
  ((binding.subjects ?? []) as { kind: string; name: string; namespace?: string }[]).some(
    (s) =>
      (s.kind === 'ServiceAccount' && user.name === `system:serviceaccount:${String(s.namespace ?? binding.metadata.namespace)}:${s.name}`) ||
      (s.kind === 'User' && s.name === user.name) ||
      (s.kind === 'Group' && user.groups.includes(s.name)),
  );

/**
 * The RBAC authorizer (kubernetes plugin/pkg/auth/authorizer/rbac/rbac.go Authorize, VisitRulesFor):
 * the rules of every ClusterRoleBinding, and of every RoleBinding in the request's Namespace
 * (a Role of that Namespace or a ClusterRole), whose subjects include the user. A binding whose
 * role does not exist grants nothing. No aggregation, no escalation checks: the model's users
 * only read and write the objects they are bound to.
 */
export function authorize(c: ApiServer, user: User, a: RequestAttributes): boolean {
  const rulesOf = (kind: string, name: string, namespace?: string): Rule[] =>
    ((kind === 'Role' ? c.get('rbac.authorization.k8s.io', 'Role', namespace, name) : c.get('rbac.authorization.k8s.io', 'ClusterRole', undefined, name))
      ?.rules ?? []) as Rule[];
  const roleRef = (binding: Obj) => binding.roleRef as { kind: string; name: string };
  for (const b of c.list('ClusterRoleBinding')) if (bound(b, user) && rulesOf('ClusterRole', roleRef(b).name).some((r) => ruleAllows(r, a))) return true;
  if (a.namespace === undefined) return false;
  for (const b of c.list('RoleBinding', a.namespace))
    if (bound(b, user) && rulesOf(roleRef(b).kind, roleRef(b).name, a.namespace).some((r) => ruleAllows(r, a))) return true;
  return false;
}

/** kube-apiserver's 403 text for a refused request. */
export const forbidden = (user: User, a: RequestAttributes): string =>
  `${a.resource}${a.group ? `.${a.group}` : ''}${a.name ? ` "${a.name}"` : ''} is forbidden: User "${user.name}" cannot ${a.verb} resource "${a.resource}" in API group "${a.group}"${a.namespace ? ` in the namespace "${a.namespace}"` : ' at the cluster scope'}`;
