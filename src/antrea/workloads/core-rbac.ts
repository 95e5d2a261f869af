import type { IClusterRole } from 'kubernetes-models/rbac.authorization.k8s.io/v1/ClusterRole';
import type { IClusterRoleBinding } from 'kubernetes-models/rbac.authorization.k8s.io/v1/ClusterRoleBinding';
import type { IPolicyRule } from 'kubernetes-models/rbac.authorization.k8s.io/v1/PolicyRule';
import type { ISecret } from 'kubernetes-models/v1/Secret';
import type { IServiceAccount } from 'kubernetes-models/v1/ServiceAccount';
import type { KubeObject } from '../../kube/kube-object';
import { ANTREA_NAMESPACE, APP_LABELS } from './constants';
import { isNetworkPolicyOnly } from './core-config';
import type { ReleaseFacts } from '../release';
import type { AntreaOptions } from './options';
import { ALL, READ, rule } from './rbac-rule';

const serviceAccount = (name: string): KubeObject =>
  ({
    apiVersion: 'v1',
    kind: 'ServiceAccount',
    metadata: { name, namespace: ANTREA_NAMESPACE, labels: { ...APP_LABELS } },
  }) satisfies IServiceAccount;

/** long-lived token Secret that Kubernetes fills for the ServiceAccount (used by antctl and the agent API) */
const tokenSecret = (serviceAccountName: string): KubeObject =>
  ({
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: {
      name: `${serviceAccountName}-service-account-token`,
      namespace: ANTREA_NAMESPACE,
      annotations: { 'kubernetes.io/service-account.name': serviceAccountName },
    },
    type: 'kubernetes.io/service-account-token',
  }) satisfies ISecret;

const clusterRole = (name: string, rules: IPolicyRule[], labels: Record<string, string> = {}): KubeObject =>
  ({
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'ClusterRole',
    metadata: { name, labels: { ...APP_LABELS, ...labels } },
    rules,
  }) satisfies IClusterRole;

/** binds the ClusterRole of the same name to the ServiceAccount of the same name */
const clusterRoleBinding = (name: string): KubeObject =>
  ({
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'ClusterRoleBinding',
    metadata: { name, labels: { ...APP_LABELS } },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name },
    subjects: [{ kind: 'ServiceAccount', name, namespace: ANTREA_NAMESPACE }],
  }) satisfies IClusterRoleBinding;

function agentRules(opts: AntreaOptions): IPolicyRule[] {
  const { facts } = opts.release;
  return [
    rule(['stats.antrea.io'], ['nodelatencystats'], ['create']),
    rule([''], ['nodes'], READ),
    rule([''], ['nodes/status'], ['patch']),
    rule([''], ['pods'], READ),
    rule([''], ['pods/status'], ['patch', 'update']),
    rule([''], ['endpoints', 'services', 'namespaces'], READ),
    rule(['discovery.k8s.io'], ['endpointslices'], READ),
    rule(['crd.antrea.io'], ['antreaagentinfos'], ['get', 'update']),
    rule(['controlplane.antrea.io'], ['networkpolicies', 'appliedtogroups', 'addressgroups'], READ),
    rule(['controlplane.antrea.io'], ['egressgroups'], READ),
    rule(['controlplane.antrea.io'], ['nodestatssummaries'], ['create']),
    rule(['controlplane.antrea.io'], ['networkpolicies/status'], ['create', 'get']),
    rule(['controlplane.antrea.io'], ['supportbundlecollections'], READ),
    rule(['controlplane.antrea.io'], ['supportbundlecollections/status'], ['create']),
    rule(['authentication.k8s.io'], ['tokenreviews'], ['create']),
    rule(['authorization.k8s.io'], ['subjectaccessreviews'], ['create']),
    // granted directly: the built-in authentication-reader Role lacks list/watch on old clusters
    rule([''], ['configmaps'], ['get', 'list', 'watch'], ['extension-apiserver-authentication']),
    rule([''], ['configmaps'], READ, ['antrea-ca']),
    // networkPolicyOnly: the agent reads the cluster Pod CIDRs from kube-proxy / kubeadm config
    ...(isNetworkPolicyOnly(opts) ? [rule([''], ['configmaps'], ['get'], ['kube-proxy', 'kubeadm-config'])] : []),
    rule(['crd.antrea.io'], ['traceflows', 'traceflows/status'], ALL),
    rule(['crd.antrea.io'], ['packetcaptures'], READ),
    rule(['crd.antrea.io'], ['packetcaptures/status'], ['update']),
    rule(['crd.antrea.io'], ['egresses'], READ),
    rule(['crd.antrea.io'], ['egresses/status'], ['update']),
    rule(['crd.antrea.io'], ['bgppolicies', 'externalippools', 'ippools', 'trafficcontrols', 'nodelatencymonitors'], READ),
    rule(['crd.antrea.io'], ['ippools/status'], ['update']),
    rule(['crd.antrea.io'], ['flowexporterdestinations'], READ),
    rule(['k8s.cni.cncf.io'], ['network-attachment-definitions'], ['get', 'list', 'watch']),
    rule(['certificates.k8s.io'], ['certificatesigningrequests'], [...READ, 'create']),
    // always granted, so turning the Multicluster gate on needs no RBAC change
    rule(['multicluster.crd.antrea.io'], ['gateways'], ['get', 'list', 'watch', 'patch']),
    rule(['multicluster.crd.antrea.io'], ['clusterinfoimports', 'labelidentities'], ['get', 'list', 'watch']),
    ...(facts.agentEventsApi === 'core' ? [rule([''], ['events'], ['create', 'patch', 'update'])] : []),
    rule(
      [''],
      ['secrets'],
      ['get', 'list', 'watch'],
      ['antrea-bgp-passwords', 'antrea-packetcapture-fileserver-auth', ...(facts.memberlistKeys ? ['antrea-memberlist-keys'] : [])],
    ),
    ...(facts.agentEventsApi === 'events.k8s.io' ? [rule(['events.k8s.io'], ['events'], ['create', 'patch', 'update'])] : []),
    ...(facts.antreaNodeConfig ? [rule(['crd.antrea.io'], ['antreanodeconfigs'], READ)] : []),
  ];
}

const ANTCTL_RULES: readonly IPolicyRule[] = [
  rule(['controlplane.antrea.io'], ['networkpolicies', 'appliedtogroups', 'addressgroups'], ['get', 'list']),
  rule(['controlplane.antrea.io'], ['networkpolicyevaluation'], ['create']),
  rule(['stats.antrea.io'], ['networkpolicystats', 'antreaclusternetworkpolicystats', 'antreanetworkpolicystats'], ['get', 'list']),
  rule(['system.antrea.io'], ['controllerinfos'], ['get']),
  rule(['system.antrea.io'], ['supportbundles'], ['create', 'get']),
  rule(['system.antrea.io'], ['supportbundles/download'], ['get']),
  {
    nonResourceURLs: [
      '/agentinfo',
      '/addressgroups',
      '/appliedtogroups',
      '/loglevel',
      '/networkpolicies',
      '/ovsflows',
      '/ovstracing',
      '/podinterfaces',
      '/podmulticaststats',
      '/featuregates',
      '/serviceexternalip',
      '/memberlist',
      '/bgppolicy',
      '/bgppeers',
      '/bgproutes',
      '/fqdncache',
      '/metrics',
      '/debug/pprof',
      '/debug/pprof/*',
    ],
    verbs: ['get'],
  },
  rule(['crd.antrea.io'], ['antreacontrollerinfos', 'antreaagentinfos'], ['get', 'list']),
  rule([''], ['pods'], ['list']),
  rule([''], ['nodes'], ['get', 'list']),
  rule(['apps'], ['daemonsets', 'deployments', 'replicasets'], ['list']),
  rule([''], ['configmaps'], ['get'], ['antrea-config', 'antrea-ca', 'antrea-ipsec-ca', 'antrea-cluster-identity']),
];

const controllerRules = (facts: ReleaseFacts): IPolicyRule[] => [
  rule([''], ['pods', 'services', 'namespaces', 'configmaps'], READ),
  rule([''], ['nodes'], [...READ, 'patch']),
  rule([''], ['services/status'], ['update']),
  rule(['networking.k8s.io'], ['networkpolicies'], READ),
  rule(['authentication.k8s.io'], ['tokenreviews'], ['create']),
  rule(['authorization.k8s.io'], ['subjectaccessreviews'], ['create']),
  rule(['apiextensions.k8s.io'], ['customresourcedefinitions'], ['get', 'list', 'update']),
  rule([''], ['configmaps'], ['get', 'list', 'watch'], ['extension-apiserver-authentication']),
  rule([''], ['configmaps'], ['get', 'update'], ['antrea-ca', 'antrea-ipsec-ca', 'antrea-cluster-identity']),
  rule(
    [''],
    ['secrets'],
    ['get', 'update', 'watch', 'list'],
    ['antrea-controller-tls', 'antrea-ipsec-ca', ...(facts.memberlistKeys ? ['antrea-memberlist-keys'] : [])],
  ),
  rule([''], ['configmaps', 'secrets'], ['create']),
  rule(['apiregistration.k8s.io'], ['apiservices'], ['list', 'update']),
  rule(['admissionregistration.k8s.io'], ['mutatingwebhookconfigurations', 'validatingwebhookconfigurations'], ['list', 'update']),
  rule(['certificates.k8s.io'], ['certificatesigningrequests'], ['get', 'list', 'watch']),
  rule(['certificates.k8s.io'], ['certificatesigningrequests/approval', 'certificatesigningrequests/status'], ['update']),
  rule(['certificates.k8s.io'], ['signers'], ['approve', 'sign'], ['antrea.io/antrea-agent-ipsec-tunnel']),
  rule(['crd.antrea.io'], ['antreacontrollerinfos'], ['get', 'create', 'update', 'delete']),
  rule(['crd.antrea.io'], ['antreaagentinfos'], ['list', 'create', 'delete']),
  rule(['crd.antrea.io'], ['clusternetworkpolicies', 'networkpolicies'], ALL),
  rule(['crd.antrea.io'], ['clusternetworkpolicies/status', 'networkpolicies/status'], ['update']),
  rule(['crd.antrea.io'], ['tiers'], ALL),
  rule(['crd.antrea.io'], ['traceflows', 'traceflows/status'], ALL),
  rule(['crd.antrea.io'], ['externalentities', 'clustergroups', 'groups'], ALL),
  rule(['crd.antrea.io'], ['clustergroups/status', 'groups/status', 'egresses/status'], ['update']),
  rule(['crd.antrea.io'], ['egresses'], [...READ, 'update', 'patch']),
  rule(['crd.antrea.io'], ['externalippools', 'ippools'], READ),
  rule(['crd.antrea.io'], ['externalippools/status', 'ippools/status'], ['update', 'patch']),
  rule(['crd.antrea.io'], ['externalnodes'], READ),
  rule(['apps'], ['statefulsets'], ['get', 'list', 'watch']),
  rule(['crd.antrea.io'], ['supportbundlecollections'], READ),
  rule(['crd.antrea.io'], ['supportbundlecollections/status'], ['update']),
  rule(['multicluster.crd.antrea.io'], ['labelidentities'], ['get', 'list', 'watch']),
  rule(
    ['policy.networking.k8s.io'],
    ['adminnetworkpolicies', 'baselineadminnetworkpolicies', ...(facts.networkPolicyApi === 'ClusterNetworkPolicy' ? ['clusternetworkpolicies'] : [])],
    ['get', 'list', 'watch'],
  ),
];

const EDIT = ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete'];
const VIEW = ['get', 'list', 'watch'];
// extends the built-in admin/edit and view roles with Antrea's own resources
const AGGREGATE_TO_EDIT = {
  'rbac.authorization.k8s.io/aggregate-to-admin': 'true',
  'rbac.authorization.k8s.io/aggregate-to-edit': 'true',
};
const AGGREGATE_TO_VIEW = { 'rbac.authorization.k8s.io/aggregate-to-view': 'true' };

function aggregateRoles(): KubeObject[] {
  const pairs: [string, string[]][] = [
    ['antrea-policies', ['clusternetworkpolicies', 'networkpolicies']],
    ['traceflows', ['traceflows']],
    ['antrea-clustergroups', ['clustergroups']],
  ];
  return pairs.flatMap(([name, resources]) => [
    clusterRole(`aggregate-${name}-edit`, [rule(['crd.antrea.io'], resources, EDIT)], AGGREGATE_TO_EDIT),
    clusterRole(`aggregate-${name}-view`, [rule(['crd.antrea.io'], resources, VIEW)], AGGREGATE_TO_VIEW),
  ]);
}

/** ServiceAccounts of the agent, antctl and the controller. */
export const antreaServiceAccounts = (): KubeObject[] => ['antrea-agent', 'antctl', 'antrea-controller'].map(serviceAccount);

/** Token Secrets for the agent and antctl ServiceAccounts. */
export const antreaTokenSecrets = (): KubeObject[] => ['antrea-agent', 'antctl'].map(tokenSecret);

/** Every ClusterRole of Antrea core, the aggregated ones included. */
export function antreaClusterRoles(opts: AntreaOptions): KubeObject[] {
  return [
    clusterRole('antrea-agent', agentRules(opts)),
    clusterRole('antctl', [...ANTCTL_RULES]),
    // no binding upstream: bound by whoever needs to read the cluster identity
    clusterRole('antrea-cluster-identity-reader', [rule([''], ['configmaps'], ['get'], ['antrea-cluster-identity'])]),
    clusterRole('antrea-controller', controllerRules(opts.release.facts)),
    ...aggregateRoles(),
  ];
}

export const antreaClusterRoleBindings = (): KubeObject[] => ['antrea-agent', 'antctl', 'antrea-controller'].map(clusterRoleBinding);
