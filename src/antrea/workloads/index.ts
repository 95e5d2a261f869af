import type { KubeObject } from '../../kube/kube-object';
import { antreaAgentDaemonSet } from './agent-daemonset';
import { antreaApiServices, antreaService } from './api-services';
import { DEFAULT_LEADER_NAMESPACE, DEFAULT_MEMBER_NAMESPACE } from './constants';
import { antreaControllerDeployment } from './controller-deployment';
import { antreaConfigMap } from './core-config';
import { antreaClusterRoleBindings, antreaClusterRoles, antreaServiceAccounts, antreaTokenSecrets } from './core-rbac';
import { antreaMutatingWebhookConfiguration, antreaValidatingWebhookConfiguration } from './core-webhooks';
import { mcControllerConfigMap } from './mc-config';
import { mcControllerDeployment, mcWebhookService } from './mc-controller';
import { leaderMcRbac, mcServiceAccount, memberMcRbac, sharedMemberAccess } from './mc-rbac';
import { leaderMcWebhooks, memberMcWebhooks } from './mc-webhooks';
import type { AntreaOptions, LeaderMcOptions, MemberMcOptions } from './options';

/** Every non-CRD object of Antrea core (upstream `antrea.yml`), in kube-system. */
export function antreaCoreObjects(opts: AntreaOptions): KubeObject[] {
  const configMap = antreaConfigMap(opts);
  return [
    ...antreaServiceAccounts(),
    ...antreaTokenSecrets(),
    configMap,
    ...antreaClusterRoles(opts),
    ...antreaClusterRoleBindings(),
    antreaService(),
    antreaAgentDaemonSet(opts, configMap),
    antreaControllerDeployment(opts, configMap),
    ...antreaApiServices(),
    antreaMutatingWebhookConfiguration(),
    antreaValidatingWebhookConfiguration(opts.release.facts),
  ];
}

/**
 * The leader mc-controller in its Namespace (upstream `antrea-multicluster-leader-namespaced.yml`).
 * The Namespace object itself and the CRDs are not part of it.
 */
export function leaderMcControllerObjects(opts: LeaderMcOptions): KubeObject[] {
  const namespace = opts.namespace ?? DEFAULT_LEADER_NAMESPACE;
  const configMap = mcControllerConfigMap(namespace, {
    enableStretchedNetworkPolicy: opts.enableStretchedNetworkPolicy,
  });
  const { facts } = opts.release;
  return [
    mcServiceAccount(namespace),
    ...leaderMcRbac(namespace, facts),
    ...((opts.sharedMemberAccount ?? !facts.perMemberCredentials) ? sharedMemberAccess(namespace) : []),
    configMap,
    mcWebhookService(namespace),
    mcControllerDeployment('leader', namespace, configMap, opts),
    ...leaderMcWebhooks(namespace, facts),
  ];
}

/** The member mc-controller (the non-CRD part of upstream `antrea-multicluster-member.yml`). */
export function memberMcControllerObjects(opts: MemberMcOptions): KubeObject[] {
  return [...memberMcAccessObjects(opts.namespace ?? DEFAULT_MEMBER_NAMESPACE), ...memberMcControllerWorkload(opts)];
}

/** What of the member mc-controller depends on its Namespace alone: ServiceAccount, RBAC, webhook Service and webhooks. */
export function memberMcAccessObjects(namespace: string): KubeObject[] {
  return [mcServiceAccount(namespace), ...memberMcRbac(namespace), mcWebhookService(namespace), ...memberMcWebhooks(namespace)];
}

/** What of the member mc-controller is the cluster's own: its configuration and the Deployment that hashes it. */
export function memberMcControllerWorkload(opts: MemberMcOptions): KubeObject[] {
  const namespace = opts.namespace ?? DEFAULT_MEMBER_NAMESPACE;
  const configMap = mcControllerConfigMap(namespace, opts);
  return [configMap, mcControllerDeployment('member', namespace, configMap, opts)];
}

export { antreaAgentDaemonSet, IPSEC_SECRET, usesIpsec } from './agent-daemonset';
export { antreaApiServices, antreaService } from './api-services';
export { CLOUD_PROVIDERS, CLOUDS, NODE_INIT, nodeInitDaemonSet, type CloudFacts, type CloudProvider } from './clouds';
export { ANTREA_NAMESPACE, CHECKSUM_CONFIG, CHECKSUM_IPSEC_SECRET, DEFAULT_LEADER_NAMESPACE, DEFAULT_MEMBER_NAMESPACE } from './constants';
export { antreaControllerDeployment } from './controller-deployment';
export { antreaAgentConf, antreaCniConflist, antreaConfigMap, antreaControllerConf, isNetworkPolicyOnly } from './core-config';
export { antreaClusterRoleBindings, antreaClusterRoles, antreaServiceAccounts, antreaTokenSecrets } from './core-rbac';
export { antreaMutatingWebhookConfiguration, antreaValidatingWebhookConfiguration } from './core-webhooks';
export { antreaHelmValues, helmChartVersion } from './helm-values';
export { DEFAULT_IMAGE_REGISTRY, imageDigestKey, imageRef, imageRepository, parseImageReference, type ImageName, type ImageOptions } from './images';
export { mcControllerConfig, mcControllerConfigMap } from './mc-config';
export { mcControllerDeployment, mcWebhookService, type McRole } from './mc-controller';
export { leaderMcRbac, leaderPrefixed, MEMBER_CLUSTER_ROLE, mcServiceAccount, memberMcRbac, SHARED_MEMBER_ACCESS_SA, sharedMemberAccess } from './mc-rbac';
export { leaderMcWebhooks, memberMcWebhooks } from './mc-webhooks';
export type {
  AntreaOptions,
  EndpointIPType,
  GatewayIPPrecedence,
  LeaderMcOptions,
  McControllerConfigOptions,
  McTrafficEncryptionMode,
  MemberMcOptions,
  MulticlusterOptions,
  TrafficEncapMode,
  TunnelType,
} from './options';
