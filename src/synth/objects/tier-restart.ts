import { createHash } from 'node:crypto';
import { MC_CONTROLLER } from '../../antrea/workloads/constants';
import type { KubeObject } from '../../kube/kube-object';
import { serviceAccountBinding } from '../../kube/rbac';
import { LABELS as ENGINE_LABELS } from '../../delivery/engine-names';
import { TIER_RESTART_UNIT } from '../../delivery/layer-paths';

const UNIT_LABEL = ENGINE_LABELS.unit;

export const TIER_RESTART = 'antrea-clusterset-tier-restart';

export interface TierRestartProps {
  /** the member's mc-controller Namespace */
  readonly namespace: string;
  readonly tiers: readonly { readonly name: string; readonly priority: number }[];
  /** an image with kubectl 1.31 or later (`kubectl wait --for=create`), pinned by digest: the definition's `spec.verify.image` */
  readonly image: string;
}

/** The Job's labels: its unit (`tier-restart/`, delivery/layer-paths.ts) and who made it. */
const LABELS = {
  'app.kubernetes.io/managed-by': 'antrea-clusterset',
  'app.kubernetes.io/component': 'tier-restart',
  [UNIT_LABEL]: TIER_RESTART_UNIT,
};

/**
 * A member imports a replicated policy only while its Tier exists; one that arrives first is
 * recorded as ACNPImportFailed and never retried until the import's generation changes or the
 * controller starts (member/acnp_resourceimport_controller.go, no requeue; the import
 * reconciler's GenerationChangedPredicate in resourceimport_controller.go, SetupWithManager).
 * So whenever the member's Tier set changes, its own delivery restarts antrea-mc-controller
 * once, after every Tier of the set exists:
 * - the Job is named by the Tier set and its whole Pod template: the same Job is a finished Job,
 *   which no engine runs again; a new set or a new template (another image, a kubectl bump in a
 *   compiler release) is a new Job, which runs once. An update in place would be refused (a Job's
 *   template is immutable, pkg/apis/batch/validation ValidateJobSpecUpdate), and with Flux the whole
 *   unit with it (fluxcd/pkg ssa ApplyAll dry-runs the unit's objects together);
 * - it is a plain Job in a unit of its own after the Tiers' layer (`tier-restart/`): Flux applies
 *   it after `4-resources` and waits for it there, Argo CD syncs it as an Application of its own,
 *   so an image the clusters cannot pull holds nothing else; its init container waits until each
 *   Tier exists, as nothing orders Argo CD's Applications;
 * - the image is the definition's, for mirrors and air-gapped registries; requests and limits;
 * - RBAC: get and patch of that one Deployment, and reading those Tiers;
 * - its restart writes `restartedAt` as a field manager of its own (`--field-manager`): under the
 *   default, `kubectl-rollout`, kustomize-controller would take the field over before each apply
 *   (fluxcd/pkg ssa `cleanupMetadata`, `kubectl` managers by prefix; kustomize-controller's
 *   `apply`) and remove it at the next reconcile of `3-workloads`, restarting the controller a
 *   second time. Neither engine removes another manager's field: Argo CD migrates only
 *   `kubectl-client-side-apply`, and a client-side apply deletes only what its last-applied
 *   configuration held.
 */
export function tierRestartObjects(props: TierRestartProps): KubeObject[] {
  const { namespace } = props;
  const names = props.tiers.map((t) => t.name).sort();
  const labels = LABELS;
  const account = { name: TIER_RESTART, namespace };
  // cluster-scoped names are per Namespace: a cluster has one member Namespace, but stay unambiguous
  const clusterName = `${TIER_RESTART}-${namespace}`;
  const job = tierRestartJob(props);
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
    job,
  ];
}

/** The Job's name: `antrea-clusterset-tier-restart-<10 hex>` of the Tier set and the Job's spec, as the plan compares it. */
export const tierRestartJobName = (props: TierRestartProps): string => tierRestartJob(props).metadata.name;

function tierRestartJob(props: TierRestartProps): KubeObject {
  const { namespace } = props;
  const names = props.tiers.map((t) => t.name).sort();
  const kubectl = (name: string, args: string[]) => ({
    name,
    image: props.image,
    command: ['kubectl'],
    args,
    env: [{ name: 'HOME', value: '/tmp' }],
    resources: { requests: { cpu: '10m', memory: '32Mi' }, limits: { cpu: '100m', memory: '128Mi' } },
    volumeMounts: [{ name: 'tmp', mountPath: '/tmp' }],
    securityContext: { allowPrivilegeEscalation: false, readOnlyRootFilesystem: true, capabilities: { drop: ['ALL'] } },
  });
  const spec = {
    backoffLimit: 6,
    template: {
      metadata: { labels: LABELS },
      spec: {
        serviceAccountName: TIER_RESTART,
        restartPolicy: 'OnFailure',
        securityContext: { runAsNonRoot: true, runAsUser: 65534, runAsGroup: 65534, seccompProfile: { type: 'RuntimeDefault' } },
        // a negative timeout waits a week per attempt: a member whose Tiers are held back still restarts once they arrive
        initContainers: [kubectl('wait-for-tiers', ['wait', '--for=create', '--timeout=-1s', ...names.map((n) => `tiers.crd.antrea.io/${n}`)])],
        containers: [kubectl('restart', [`--namespace=${namespace}`, 'rollout', 'restart', `deployment/${MC_CONTROLLER}`, `--field-manager=${TIER_RESTART}`])],
        volumes: [{ name: 'tmp', emptyDir: { sizeLimit: '16Mi' } }],
      },
    },
  };
  const hash = createHash('sha256')
    .update(JSON.stringify([tierSet(props.tiers), spec]))
    .digest('hex')
    .slice(0, 10);
  return { apiVersion: 'batch/v1', kind: 'Job', metadata: { name: `${TIER_RESTART}-${hash}`, namespace, labels: LABELS }, spec };
}

/** The Tier set (names and priorities, in name order). */
const tierSet = (tiers: TierRestartProps['tiers']) =>
  [...tiers].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)).map((t) => [t.name, t.priority]);
