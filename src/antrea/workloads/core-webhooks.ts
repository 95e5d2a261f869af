import type { IMutatingWebhookConfiguration } from 'kubernetes-models/admissionregistration.k8s.io/v1/MutatingWebhookConfiguration';
import type { IValidatingWebhookConfiguration } from 'kubernetes-models/admissionregistration.k8s.io/v1/ValidatingWebhookConfiguration';
import type { IMutatingWebhook } from 'kubernetes-models/admissionregistration.k8s.io/v1/MutatingWebhook';
import type { IValidatingWebhook } from 'kubernetes-models/admissionregistration.k8s.io/v1/ValidatingWebhook';
import type { ReleaseFacts } from '../release';
import type { KubeObject } from '../../kube/kube-object';
import { SERVED_BY_CONTROLLER } from './api-services';
import { ANTREA_NAMESPACE, ANTREA_SERVICE } from './constants';

type Operation = 'CREATE' | 'UPDATE' | 'DELETE';

interface Hook {
  /** webhook name prefix: `<name>mutator.antrea.io` / `<name>validator.antrea.io` */
  readonly name: string;
  /** path segment after `/mutate/` or `/validate/`; @default name */
  readonly path?: string;
  readonly operations: readonly Operation[];
  readonly apiGroup?: string;
  readonly apiVersions: readonly string[];
  readonly resource: string;
  /** absent: any scope */
  readonly scope?: 'Cluster' | 'Namespaced';
}

const CU: readonly Operation[] = ['CREATE', 'UPDATE'];
const CUD: readonly Operation[] = ['CREATE', 'UPDATE', 'DELETE'];

// caBundle is absent on purpose: antrea-controller injects it at runtime
function webhook(kind: 'mutate' | 'validate', h: Hook): IMutatingWebhook & IValidatingWebhook {
  return {
    name: `${h.name}${kind === 'mutate' ? 'mutator' : 'validator'}.antrea.io`,
    clientConfig: {
      service: { name: ANTREA_SERVICE, namespace: ANTREA_NAMESPACE, path: `/${kind}/${h.path ?? h.name}` },
    },
    rules: [
      {
        operations: [...h.operations],
        apiGroups: [h.apiGroup ?? 'crd.antrea.io'],
        apiVersions: [...h.apiVersions],
        resources: [h.resource],
        ...(h.scope && { scope: h.scope }),
      },
    ],
    admissionReviewVersions: ['v1', 'v1beta1'],
    sideEffects: 'None',
    timeoutSeconds: 5,
  };
}

const MUTATORS: readonly Hook[] = [
  { name: 'acnp', operations: CU, apiVersions: ['v1beta1'], resource: 'clusternetworkpolicies', scope: 'Cluster' },
  { name: 'annp', operations: CU, apiVersions: ['v1beta1'], resource: 'networkpolicies', scope: 'Namespaced' },
];

const validators = (facts: ReleaseFacts): Hook[] => [
  { name: 'tier', operations: CUD, apiVersions: ['v1beta1'], resource: 'tiers', scope: 'Cluster' },
  { name: 'acnp', operations: CU, apiVersions: ['v1beta1'], resource: 'clusternetworkpolicies', scope: 'Cluster' },
  { name: 'annp', operations: CU, apiVersions: ['v1beta1'], resource: 'networkpolicies', scope: 'Namespaced' },
  ...(facts.networkPolicyApi === 'AdminNetworkPolicy' ? ADMIN_NETWORK_POLICY_VALIDATORS : []),
  { name: 'clustergroup', operations: CU, apiVersions: ['v1beta1'], resource: 'clustergroups', scope: 'Cluster' },
  { name: 'group', operations: CU, apiVersions: ['v1beta1'], resource: 'groups', scope: 'Namespaced' },
  {
    name: 'externalippool',
    operations: CU,
    apiVersions: ['v1alpha2', 'v1beta1'],
    resource: 'externalippools',
    scope: 'Cluster',
  },
  { name: 'egress', operations: CU, apiVersions: ['v1beta1'], resource: 'egresses', scope: 'Cluster' },
  { name: 'ippool', operations: CUD, apiVersions: ['v1beta1'], resource: 'ippools', scope: 'Cluster' },
  {
    name: 'supportbundlecollection',
    operations: CUD,
    apiVersions: ['v1alpha1'],
    resource: 'supportbundlecollections',
    scope: 'Cluster',
  },
  { name: 'packetcapture', operations: CU, apiVersions: ['v1alpha1'], resource: 'packetcaptures', scope: 'Cluster' },
  { name: 'traceflow', operations: CU, apiVersions: ['v1beta1'], resource: 'traceflows', scope: 'Cluster' },
  // the upstream ClusterNetworkPolicy API (policy.networking.k8s.io), checked on create only
  ...(facts.networkPolicyApi === 'ClusterNetworkPolicy'
    ? [
        {
          name: 'cnp',
          operations: ['CREATE'],
          apiGroup: 'policy.networking.k8s.io',
          apiVersions: ['v1alpha2'],
          resource: 'clusternetworkpolicies',
          scope: 'Cluster',
        } as const,
      ]
    : []),
  ...(facts.antreaNodeConfig
    ? [{ name: 'antreanodeconfig', operations: CU, apiVersions: ['v1alpha1'], resource: 'antreanodeconfigs', scope: 'Cluster' } as const]
    : []),
];

// before v2.7 (network-policy-api v1alpha1); upstream leaves their scope unset
const ADMIN_NETWORK_POLICY_VALIDATORS: readonly Hook[] = [
  { name: 'anp', operations: CU, apiGroup: 'policy.networking.k8s.io', apiVersions: ['v1alpha1'], resource: 'adminnetworkpolicies' },
  { name: 'banp', operations: CU, apiGroup: 'policy.networking.k8s.io', apiVersions: ['v1alpha1'], resource: 'baselineadminnetworkpolicies' },
];

export function antreaMutatingWebhookConfiguration(): KubeObject {
  return {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'MutatingWebhookConfiguration',
    metadata: { name: 'crdmutator.antrea.io', labels: { ...SERVED_BY_CONTROLLER } },
    webhooks: MUTATORS.map((h) => webhook('mutate', h)),
  } satisfies IMutatingWebhookConfiguration;
}

export function antreaValidatingWebhookConfiguration(facts: ReleaseFacts): KubeObject {
  return {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'ValidatingWebhookConfiguration',
    metadata: { name: 'crdvalidator.antrea.io', labels: { ...SERVED_BY_CONTROLLER } },
    webhooks: validators(facts).map((h) => webhook('validate', h)),
  } satisfies IValidatingWebhookConfiguration;
}
