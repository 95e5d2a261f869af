import { createHash } from 'node:crypto';
import { MC_CONTROLLER } from '../../antrea/workloads/constants';
import type { KubeObject } from '../../kube/kube-object';
import { serviceAccountBinding } from '../../kube/rbac';

/**
 * kubectl for the restart, pinned by digest (we cannot reach registries from here: this is the
 * index digest of registry.k8s.io/kubectl:v1.34.1 as several public Dockerfiles pin it). 1.34
 * has `kubectl wait --for=create` (since 1.31).
 */
export const KUBECTL_IMAGE = 'registry.k8s.io/kubectl:v1.34.1@sha256:59bafa07ff3a6d4b417e7633ddb9d79a9606ca98bf64bac080b3e65748669250';

export const TIER_RESTART = 'antrea-clusterset-tier-restart';

export interface TierRestartProps {
  /** the member's mc-controller Namespace */
  readonly namespace: string;
  readonly tiers: readonly { readonly name: string; readonly priority: number }[];
}

/** 10 hex characters of the Tier set (names and priorities, in name order): the Job's identity. */
export const tierSetHash = (tiers: TierRestartProps['tiers']): string =>
  createHash('sha256')
    .update(JSON.stringify([...tiers].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)).map((t) => [t.name, t.priority])))
    .digest('hex')
    .slice(0, 10);

/**
 * A member imports a replicated policy only while its Tier exists; one that arrives first is
 * recorded as ACNPImportFailed and never retried until the import's generation changes or the
 * controller starts (member/acnp_resourceimport_controller.go, no requeue; the import
 * reconciler's GenerationChangedPredicate in resourceimport_controller.go, SetupWithManager).
 * So whenever the member's Tier set changes, its own delivery restarts antrea-mc-controller
 * once, after every Tier of the set exists:
 * - the Job is named by the Tier set: the same set is the same finished Job, which no engine
 *   runs again; a new set is a new Job;
 * - Argo CD runs it as a PostSync hook, after the sync is healthy. A named hook whose delete
 *   policy is not BeforeHookCreation (gitops-engine's default when none is set,
 *   pkg/sync/hook/delete_policy.go DeletePolicies) is created once and kept; HookFailed deletes a
 *   failed run so the next sync tries again;
 * - Flux and `kubectl apply -k` apply it with the Tiers (same layer); its init container waits
 *   until each Tier exists, so nothing else in the layer (an export, the ClusterSet's health)
 *   stands between the Tiers and the restart;
 * - RBAC: get and patch of that one Deployment, and reading those Tiers.
 */
export function tierRestartObjects(props: TierRestartProps): KubeObject[] {
  const { namespace } = props;
  const names = props.tiers.map((t) => t.name).sort();
  const labels = { 'app.kubernetes.io/managed-by': 'antrea-clusterset', 'app.kubernetes.io/component': 'tier-restart' };
  const account = { name: TIER_RESTART, namespace };
  // cluster-scoped names are per Namespace: a cluster has one member Namespace, but stay unambiguous
  const clusterName = `${TIER_RESTART}-${namespace}`;
  const kubectl = (name: string, args: string[]) => ({
    name,
    image: KUBECTL_IMAGE,
    command: ['kubectl'],
    args,
    env: [{ name: 'HOME', value: '/tmp' }],
    volumeMounts: [{ name: 'tmp', mountPath: '/tmp' }],
    securityContext: { allowPrivilegeEscalation: false, readOnlyRootFilesystem: true, capabilities: { drop: ['ALL'] } },
  });
  return [
    { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: TIER_RESTART, namespace, labels } },
    {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'Role',
      metadata: { name: TIER_RESTART, namespace, labels },
      rules: [{ apiGroups: ['apps'], resources: ['deployments'], resourceNames: [MC_CONTROLLER], verbs: ['get', 'patch'] }],
    },
    serviceAccountBinding('RoleBinding', { name: TIER_RESTART, namespace, labels }, { kind: 'Role', name: TIER_RESTART }, account),
    {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRole',
      metadata: { name: clusterName, labels },
      // kubectl wait on named objects lists and watches them with a metadata.name field selector,
      // which resourceNames admits
      rules: [{ apiGroups: ['crd.antrea.io'], resources: ['tiers'], resourceNames: names, verbs: ['get', 'list', 'watch'] }],
    },
    serviceAccountBinding('ClusterRoleBinding', { name: clusterName, labels }, { kind: 'ClusterRole', name: clusterName }, account),
    {
      apiVersion: 'batch/v1',
      kind: 'Job',
      metadata: {
        name: `${TIER_RESTART}-${tierSetHash(props.tiers)}`,
        namespace,
        labels,
        annotations: { 'argocd.argoproj.io/hook': 'PostSync', 'argocd.argoproj.io/hook-delete-policy': 'HookFailed' },
      },
      spec: {
        backoffLimit: 6,
        template: {
          metadata: { labels },
          spec: {
            serviceAccountName: TIER_RESTART,
            restartPolicy: 'OnFailure',
            securityContext: { runAsNonRoot: true, runAsUser: 65534, runAsGroup: 65534, seccompProfile: { type: 'RuntimeDefault' } },
            // a negative timeout waits a week per attempt: a member whose Tiers are held back still restarts once they arrive
            initContainers: [kubectl('wait-for-tiers', ['wait', '--for=create', '--timeout=-1s', ...names.map((n) => `tiers.crd.antrea.io/${n}`)])],
            containers: [kubectl('restart', [`--namespace=${namespace}`, 'rollout', 'restart', `deployment/${MC_CONTROLLER}`])],
            volumes: [{ name: 'tmp', emptyDir: {} }],
          },
        },
      },
    },
  ];
}
