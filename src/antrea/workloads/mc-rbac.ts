import type { IClusterRole } from 'kubernetes-models/rbac.authorization.k8s.io/v1/ClusterRole';
import type { IClusterRoleBinding } from 'kubernetes-models/rbac.authorization.k8s.io/v1/ClusterRoleBinding';
import type { IPolicyRule } from 'kubernetes-models/rbac.authorization.k8s.io/v1/PolicyRule';
import type { IRole } from 'kubernetes-models/rbac.authorization.k8s.io/v1/Role';
import type { IRoleBinding } from 'kubernetes-models/rbac.authorization.k8s.io/v1/RoleBinding';
import type { ISecret } from 'kubernetes-models/v1/Secret';
import type { IServiceAccount } from 'kubernetes-models/v1/ServiceAccount';
import type { ReleaseFacts } from '../release';
import type { KubeObject } from '../../kube/kube-object';
import { APP_LABELS, MC_CONTROLLER } from './constants';
import { CRUD, rule } from './rbac-rule';

const MC = 'multicluster.crd.antrea.io';
const READ_MC = ['get', 'list', 'watch'];
const STATUS = ['get', 'patch', 'update'];

/** a kind the controller owns: full access, status, and finalizers (for owner references) */
const owned = (group: string, plural: string): IPolicyRule[] => [
  rule([group], [plural], CRUD),
  rule([group], [`${plural}/finalizers`], ['update']),
  rule([group], [`${plural}/status`], STATUS),
];

/** Leader: Role `antrea-mc-member-cluster-role`, bound per member ServiceAccount by the bundle. */
export const MEMBER_CLUSTER_ROLE = 'antrea-mc-member-cluster-role';

/** Leader-side cluster-scoped names carry the Namespace so several leaders can share a cluster. */
export const leaderPrefixed = (namespace: string, name: string): string => `${namespace}-${name}`;

export const mcServiceAccount = (namespace: string): KubeObject =>
  ({
    apiVersion: 'v1',
    kind: 'ServiceAccount',
    metadata: { labels: { ...APP_LABELS }, name: MC_CONTROLLER, namespace },
  }) satisfies IServiceAccount;

const leaderControllerRules = (facts: ReleaseFacts): IPolicyRule[] => [
  // list: the v2.7 MemberClusterAnnounce webhook looks up the calling member's ServiceAccount
  rule([''], ['serviceaccounts'], facts.perMemberCredentials ? ['get', 'list'] : ['get']),
  rule([''], ['configmaps'], ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete']),
  rule([MC], ['clusterclaims'], READ_MC),
  ...owned(MC, 'clustersets'),
  ...owned(MC, 'memberclusterannounces'),
  ...owned(MC, 'resourceexports'),
  ...owned(MC, 'resourceimports'),
];

const MEMBER_CLUSTER_RULES: readonly IPolicyRule[] = [
  rule([''], ['events'], ['create']),
  rule([MC], ['memberclusterannounces'], CRUD),
  rule([MC], ['memberclusterannounces/status'], ['get']),
  rule([MC], ['resourceexports'], CRUD),
  rule([MC], ['resourceexports/status'], STATUS),
  rule([MC], ['resourceimports'], READ_MC),
  rule([MC], ['resourceimports/status'], STATUS),
];

/** caBundle injection into the controller's own webhook configurations */
const WEBHOOK_RULES: readonly IPolicyRule[] = [
  rule(['admissionregistration.k8s.io'], ['mutatingwebhookconfigurations', 'validatingwebhookconfigurations'], ['list', 'update']),
];

const MEMBER_CONTROLLER_RULES: readonly IPolicyRule[] = [
  // the leader token Secret is read from the member ClusterSet's Namespace
  rule([''], ['secrets'], READ_MC),
  ...WEBHOOK_RULES,
  rule([''], ['nodes'], READ_MC),
  rule([''], ['configmaps'], ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete']),
  rule([''], ['endpoints'], CRUD),
  rule(['discovery.k8s.io'], ['endpointslices'], READ_MC),
  rule([''], ['pods'], READ_MC),
  rule([''], ['namespaces'], READ_MC),
  rule([''], ['services'], CRUD),
  rule(['crd.antrea.io'], ['clusternetworkpolicies'], CRUD),
  rule(['crd.antrea.io'], ['tiers'], READ_MC),
  rule([MC], ['clusterclaims'], READ_MC),
  ...owned(MC, 'clustersets'),
  rule(['multicluster.x-k8s.io'], ['serviceexports'], CRUD),
  rule(['multicluster.x-k8s.io'], ['serviceexports/status'], STATUS),
  rule(['multicluster.x-k8s.io'], ['serviceimports'], CRUD),
  rule(['multicluster.x-k8s.io'], ['serviceimports/status'], STATUS),
  ...owned(MC, 'clusterinfoimports'),
  rule([MC], ['labelidentities'], CRUD),
  ...owned(MC, 'gateways'),
  // service CIDR discovery on Kubernetes >= 1.33
  rule(['networking.k8s.io'], ['servicecidrs'], ['get', 'list']),
];

const role = (name: string, namespace: string, rules: readonly IPolicyRule[]): KubeObject =>
  ({
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'Role',
    metadata: { labels: { ...APP_LABELS }, name, namespace },
    rules: [...rules],
  }) satisfies IRole;

const clusterRole = (name: string, rules: readonly IPolicyRule[]): KubeObject =>
  ({
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'ClusterRole',
    metadata: { labels: { ...APP_LABELS }, name },
    rules: [...rules],
  }) satisfies IClusterRole;

const controllerSubject = (namespace: string) => [{ kind: 'ServiceAccount', name: MC_CONTROLLER, namespace }];

/** Leader RBAC in `namespace`: controller Role and binding, the member Role, the webhook ClusterRole and binding. */
export function leaderMcRbac(namespace: string, facts: ReleaseFacts): KubeObject[] {
  const webhookRole = leaderPrefixed(namespace, 'antrea-mc-controller-webhook-role');
  return [
    role('antrea-mc-controller-role', namespace, leaderControllerRules(facts)),
    role(MEMBER_CLUSTER_ROLE, namespace, MEMBER_CLUSTER_RULES),
    clusterRole(webhookRole, WEBHOOK_RULES),
    {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'RoleBinding',
      metadata: { labels: { ...APP_LABELS }, name: 'antrea-mc-controller-rolebinding', namespace },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'antrea-mc-controller-role' },
      subjects: controllerSubject(namespace),
    } satisfies IRoleBinding,
    {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRoleBinding',
      metadata: {
        labels: { ...APP_LABELS },
        name: leaderPrefixed(namespace, 'antrea-mc-controller-webhook-rolebinding'),
      },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: webhookRole },
      subjects: controllerSubject(namespace),
    } satisfies IClusterRoleBinding,
  ];
}

/** The shared member credential upstream's leader manifest ships before v2.7 (`antctl mc init` also creates it). */
export const SHARED_MEMBER_ACCESS_SA = 'antrea-mc-member-access-sa';

/** The shared member ServiceAccount, its binding to the member Role and its token Secret. */
export function sharedMemberAccess(namespace: string): KubeObject[] {
  return [
    {
      apiVersion: 'v1',
      kind: 'ServiceAccount',
      metadata: { labels: { ...APP_LABELS }, name: SHARED_MEMBER_ACCESS_SA, namespace },
    } satisfies IServiceAccount,
    {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'RoleBinding',
      metadata: { labels: { ...APP_LABELS }, name: 'antrea-mc-member-cluster-rolebinding', namespace },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: MEMBER_CLUSTER_ROLE },
      subjects: [{ kind: 'ServiceAccount', name: SHARED_MEMBER_ACCESS_SA, namespace }],
    } satisfies IRoleBinding,
    {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: {
        annotations: { 'kubernetes.io/service-account.name': SHARED_MEMBER_ACCESS_SA },
        labels: { ...APP_LABELS },
        name: 'antrea-mc-member-access-token',
        namespace,
      },
      type: 'kubernetes.io/service-account-token',
    } satisfies ISecret,
  ];
}

/** Member RBAC: one unprefixed ClusterRole and binding, hence one member controller per cluster. */
export function memberMcRbac(namespace: string): KubeObject[] {
  return [
    clusterRole('antrea-mc-controller-role', MEMBER_CONTROLLER_RULES),
    {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRoleBinding',
      metadata: { labels: { ...APP_LABELS }, name: 'antrea-mc-controller-rolebinding' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'antrea-mc-controller-role' },
      subjects: controllerSubject(namespace),
    } satisfies IClusterRoleBinding,
  ];
}
