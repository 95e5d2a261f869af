import { NODE_INIT } from '../antrea/workloads/clouds';
import type { KubeObject } from '../kube/kube-object';

/**
 * Apply order inside a bundle (architecture.md, "Ordering and ownership"): the mc-controller
 * injects webhook caBundles only at start-up, so webhook configurations precede workloads,
 * and custom resources come last, once their CRDs and webhooks are serving.
 */
export const LAYERS = ['namespaces-crds', 'rbac-config', 'webhooks', 'workloads', 'resources'] as const;
export type Layer = (typeof LAYERS)[number];

const BY_KIND: Record<string, Layer> = {
  Namespace: 'namespaces-crds',
  CustomResourceDefinition: 'namespaces-crds',
  ServiceAccount: 'rbac-config',
  Secret: 'rbac-config',
  Role: 'rbac-config',
  RoleBinding: 'rbac-config',
  ClusterRole: 'rbac-config',
  ClusterRoleBinding: 'rbac-config',
  ConfigMap: 'rbac-config',
  Service: 'rbac-config',
  MutatingWebhookConfiguration: 'webhooks',
  ValidatingWebhookConfiguration: 'webhooks',
  // admission policies must hold before the objects they check (Gateway Nodes, layer 4)
  ValidatingAdmissionPolicy: 'webhooks',
  ValidatingAdmissionPolicyBinding: 'webhooks',
  DaemonSet: 'workloads',
  Deployment: 'workloads',
  // with antrea-controller, which serves them: Argo CD holds an APIService Progressing until
  // Available=True (gitops-engine pkg/health/health_apiservice.go), so in an earlier wave it would
  // wait forever for a controller applied after it; antrea-controller writes their caBundle
  // whenever they appear (cacert_controller.go, every 2 minutes)
  APIService: 'workloads',
};

/**
 * A cloud's node-init prepares the Node's network (Azure CNI mode, kubelet's CNI flags) before the
 * agent installs Antrea's CNI, so it is applied a layer before the workloads. It joins an existing
 * layer: layer directories, sync waves and Flux Kustomization names never move, since renaming a
 * Kustomization makes Flux prune what it applied.
 */
const EARLY_DAEMONSETS = new Set([NODE_INIT]);

export const layerOf = (o: KubeObject): Layer =>
  o.kind === 'DaemonSet' && EARLY_DAEMONSETS.has(o.metadata.name) ? 'rbac-config' : (BY_KIND[o.kind] ?? 'resources');
export const layerIndex = (o: KubeObject): number => LAYERS.indexOf(layerOf(o));
