import type { IApplication } from '@kubernetes-models/argo-cd/argoproj.io/v1alpha1/Application';

export type IgnoreDifference = NonNullable<IApplication['spec']['ignoreDifferences']>[number];

/**
 * Fields that controllers write after every apply; without these entries Argo CD reports the
 * bundle OutOfSync forever and selfHeal fights the controllers (argo-cd #1487):
 * - antrea-controller injects `caBundle` into its APIServices, webhook configurations and the
 *   IPPool CRD conversion webhook; the mc-controller into its own webhook configurations;
 * - kube-controller-manager fills the member token Secrets (`ca.crt`, `namespace`, `token`);
 * - every controller writes `status`, which the bundles never carry.
 */
export const ignoreDifferences = (): IgnoreDifference[] => [
  { group: 'admissionregistration.k8s.io', kind: 'MutatingWebhookConfiguration', jqPathExpressions: ['.webhooks[]?.clientConfig.caBundle'] },
  { group: 'admissionregistration.k8s.io', kind: 'ValidatingWebhookConfiguration', jqPathExpressions: ['.webhooks[]?.clientConfig.caBundle'] },
  { group: 'apiregistration.k8s.io', kind: 'APIService', jsonPointers: ['/spec/caBundle'] },
  { group: 'apiextensions.k8s.io', kind: 'CustomResourceDefinition', jsonPointers: ['/spec/conversion/webhook/clientConfig/caBundle'] },
  { kind: 'Secret', managedFieldsManagers: ['kube-controller-manager'] },
  { group: '*', kind: '*', jsonPointers: ['/status'] },
];

/**
 * Server-side apply for the partial Gateway Nodes and shared field ownership; ignored fields
 * stay as the controllers wrote them during a sync; Namespaces come from the bundle, never from
 * Argo CD. No `PruneLast`: it puts the prunes in a wave after the last (gitops-engine
 * sync_context.go `getSyncTasks`), and any later wave makes the sync wait for the health of the
 * last layer first, the ClusterSet's: a member that never connects would hold that sync, and every
 * later commit, forever. A guarded object left behind (Namespaces, CRDs, token sources) is such a
 * prune task on every sync. Prunes run first in their own wave instead, in reverse wave order.
 */
export const syncOptions = (): string[] => ['ServerSideApply=true', 'RespectIgnoreDifferences=true', 'CreateNamespace=false'];
