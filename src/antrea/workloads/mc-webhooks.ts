import type { IMutatingWebhookConfiguration } from 'kubernetes-models/admissionregistration.k8s.io/v1/MutatingWebhookConfiguration';
import type { IValidatingWebhookConfiguration } from 'kubernetes-models/admissionregistration.k8s.io/v1/ValidatingWebhookConfiguration';
import type { IMutatingWebhook } from 'kubernetes-models/admissionregistration.k8s.io/v1/MutatingWebhook';
import type { IValidatingWebhook } from 'kubernetes-models/admissionregistration.k8s.io/v1/ValidatingWebhook';
import type { ReleaseFacts } from '../release';
import type { KubeObject } from '../../kube/kube-object';
import { MC_WEBHOOK_SERVICE } from './constants';
import { leaderPrefixed } from './mc-rbac';

type Operation = 'CREATE' | 'UPDATE' | 'DELETE';

interface Hook {
  readonly name: string;
  /** `mutate` or `validate` path for `<version>` `<kind>` (kubebuilder's path scheme) */
  readonly path: string;
  readonly version: string;
  readonly resource: string;
  readonly operations: readonly Operation[];
  readonly admissionReviewVersions: readonly string[];
  /** only objects in the controller's own Namespace; @default true */
  readonly namespaced?: boolean;
}

const MC_GROUP = 'multicluster.crd.antrea.io';

// caBundle is absent on purpose: the mc-controller injects it at start-up, matching the labels below
function webhook(namespace: string, h: Hook): IMutatingWebhook & IValidatingWebhook {
  return {
    admissionReviewVersions: [...h.admissionReviewVersions],
    clientConfig: { service: { name: MC_WEBHOOK_SERVICE, namespace, path: h.path } },
    failurePolicy: 'Fail',
    name: h.name,
    ...(h.namespaced !== false && {
      namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': namespace } },
    }),
    rules: [
      {
        apiGroups: [MC_GROUP],
        apiVersions: [h.version],
        operations: [...h.operations],
        resources: [h.resource],
      },
    ],
    sideEffects: 'None',
  };
}

const CLUSTERSET: Hook = {
  name: 'vclusterset.kb.io',
  path: '/validate-multicluster-crd-antrea-io-v1alpha2-clusterset',
  version: 'v1alpha2',
  resource: 'clustersets',
  operations: ['CREATE', 'UPDATE', 'DELETE'],
  admissionReviewVersions: ['v1', 'v1beta1'],
};

const LEADER_MUTATING: readonly Hook[] = [
  {
    name: 'mresourceexport.kb.io',
    path: '/mutate-multicluster-crd-antrea-io-v1alpha1-resourceexport',
    version: 'v1alpha1',
    resource: 'resourceexports',
    operations: ['CREATE', 'UPDATE'],
    admissionReviewVersions: ['v1', 'v1beta1'],
  },
];

// v2.7 checks that a member announces and exports only under its own ServiceAccount
// (multicluster/controllers/multicluster/leader: memberclusterannounce_webhook.go, resourceexport_webhook.go)
const leaderValidating = (facts: ReleaseFacts): Hook[] => [
  CLUSTERSET,
  {
    name: 'vmemberclusterannounce.kb.io',
    path: '/validate-multicluster-crd-antrea-io-v1alpha1-memberclusterannounce',
    version: 'v1alpha1',
    resource: 'memberclusterannounces',
    ...(facts.perMemberCredentials
      ? { operations: ['CREATE', 'UPDATE', 'DELETE'], admissionReviewVersions: ['v1'] }
      : { operations: ['CREATE', 'UPDATE'], admissionReviewVersions: ['v1', 'v1beta1'] }),
  },
  ...(facts.perMemberCredentials
    ? [
        {
          name: 'vresourceexport.kb.io',
          path: '/validate-multicluster-crd-antrea-io-v1alpha1-resourceexport',
          version: 'v1alpha1',
          resource: 'resourceexports',
          operations: ['CREATE', 'UPDATE', 'DELETE'],
          admissionReviewVersions: ['v1'],
        } as const,
      ]
    : []),
];

const MEMBER_VALIDATING: readonly Hook[] = [
  CLUSTERSET,
  {
    name: 'vgateway.kb.io',
    path: '/validate-multicluster-crd-antrea-io-v1alpha1-gateway',
    version: 'v1alpha1',
    resource: 'gateways',
    operations: ['CREATE', 'UPDATE'],
    admissionReviewVersions: ['v1', 'v1beta1'],
    // gateways live in the member Namespace anyway; upstream leaves this one cluster-wide
    namespaced: false,
  },
];

type Role = 'leader' | 'member';

function labels(role: Role, namespace: string): Record<string, string> {
  // served-in tells several leader controllers in one cluster apart
  return {
    app: 'antrea',
    role,
    'served-by': 'antrea-mc-controller',
    ...(role === 'leader' && { 'served-in': namespace }),
  };
}

function configurations(role: Role, namespace: string, mutating: readonly Hook[], validating: readonly Hook[]) {
  const name = (base: string) => (role === 'leader' ? leaderPrefixed(namespace, base) : base);
  return [
    {
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'MutatingWebhookConfiguration',
      metadata: { labels: labels(role, namespace), name: name('antrea-mc-mutating-webhook-configuration') },
      webhooks: mutating.map((h) => webhook(namespace, h)),
    } satisfies IMutatingWebhookConfiguration,
    {
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingWebhookConfiguration',
      metadata: { labels: labels(role, namespace), name: name('antrea-mc-validating-webhook-configuration') },
      webhooks: validating.map((h) => webhook(namespace, h)),
    } satisfies IValidatingWebhookConfiguration,
  ] satisfies KubeObject[];
}

/** Leader webhook configurations: Namespace-prefixed names, `served-in` label, scoped to the leader Namespace. */
export const leaderMcWebhooks = (namespace: string, facts: ReleaseFacts): KubeObject[] =>
  configurations('leader', namespace, LEADER_MUTATING, leaderValidating(facts));

/** Member webhook configurations; the mutating one has no webhooks but is still matched for caBundle. */
export const memberMcWebhooks = (namespace: string): KubeObject[] => configurations('member', namespace, [], MEMBER_VALIDATING);
