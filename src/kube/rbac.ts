import type { KubeObject, ObjectMeta } from './kube-object';

/** A RoleBinding or ClusterRoleBinding that grants one Role or ClusterRole to one ServiceAccount. */
export const serviceAccountBinding = (
  kind: 'RoleBinding' | 'ClusterRoleBinding',
  metadata: ObjectMeta,
  role: { readonly kind: 'Role' | 'ClusterRole'; readonly name: string },
  account: { readonly name: string; readonly namespace: string },
): KubeObject => ({
  apiVersion: 'rbac.authorization.k8s.io/v1',
  kind,
  metadata,
  roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: role.kind, name: role.name },
  subjects: [{ kind: 'ServiceAccount', name: account.name, namespace: account.namespace }],
});
