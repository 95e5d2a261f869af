import type { IApplication } from '@kubernetes-models/argo-cd/argoproj.io/v1alpha1/Application';
import type { IApplicationSet } from '@kubernetes-models/argo-cd/argoproj.io/v1alpha1/ApplicationSet';
import type { ClusterSet } from '../../model/clusterset';
import { asKubeObject, type KubeObject } from '../../kube/kube-object';
import { bundlePath, engineName, LABELS, MANAGED_BY, type Role } from '../engine-names';
import { EXPORTS_DIRECTORY, TIER_RESTART_DIRECTORY, VERIFY_DIRECTORY } from '../layer-paths';
import type { ClusterDeliveryInputs, EngineObject } from '../cluster-inputs';
import { ignoreDifferences, syncOptions } from './ignore-differences';
import { argoCdHealthConfigMap } from './health';
import { ARGOCD_SYNC_WAVE } from './sync-waves';

type ArgoCdDelivery = NonNullable<ClusterSet['spec']['delivery']['argocd']>;
type Destination = { name: string } | { server: string };
type ApplicationSpec = IApplication['spec'];

/** Folders under dist/<clusterset>/: apply the ApplicationSet, or else the plain Applications. */
export const ARGOCD_FOLDER = 'argocd';
export const ARGOCD_APPLICATIONS_FOLDER = 'argocd/applications';
/** The health rules as `argocd-cm` keys, applied once per Argo CD (docs/delivery.md). */
export const ARGOCD_HEALTH_FOLDER = 'argocd/health';

/** One bundle as Argo CD sees it. */
interface Target {
  readonly name: string;
  readonly clusterID: string;
  readonly role: Role;
  readonly path: string;
  readonly destination: Destination;
}

const targetOf = (argocd: ArgoCdDelivery, clusterSet: string, clusterID: string, role: Role, destination: ClusterDeliveryInputs['destination']): Target => ({
  name: engineName(clusterSet, clusterID),
  clusterID,
  role,
  path: bundlePath(argocd.path, clusterSet, clusterID),
  destination: destinationOf(clusterID, destination),
});

/** A unit of a cluster's bundle (`<bundle>/<dir>/`) as its own Application, `<clusterset>-<clusterID>-<dir>`. */
const unitTargetOf = (t: Target, dir: string): Target => ({ ...t, name: engineName(t.name, dir), path: `${t.path}/${dir}` });

/**
 * `refresh: true` (Argo CD 3.2+): a retry syncs the latest revision, not the one that failed
 * (controller/appcontroller.go `processRequestedAppOperation`). Without it, while a sync is being
 * retried no new operation starts (`autoSync` skips an Application with an operation in progress),
 * so the commit that fixes the failure is not synced before the retries are spent, and never under
 * a limit of -1.
 */
type Retry = { limit: number; backoff: { duration: string; factor: number; maxDuration: string }; refresh: true };

/** A bundle's sync: CRDs can take a moment to be established after their wave (argo-cd #1940). */
const RETRY: Retry = { limit: 5, backoff: { duration: '10s', factor: 2, maxDuration: '3m' }, refresh: true };

/**
 * The units' syncs retry without end (a negative `retry.limit`, argo-cd
 * docs/operator-manual/application.yaml): until the application's own delivery creates its
 * Namespace (the exports), or the bundle its member Namespace and CRDs (the verification, the Tier
 * restart: nothing orders their Application after the bundle's), the apply is refused and the sync
 * fails, and an automated sync does not try a failed revision again once its retries are spent
 * (argo-cd controller/appcontroller.go autoSync). The backoff caps at the same 3 minutes as the
 * bundle's.
 */
const UNIT_RETRY: Retry = { ...RETRY, limit: -1 };

/**
 * `resources-finalizer.argocd.argoproj.io` on the exports and Tier-restart Applications: one that
 * goes (its cluster's last export removed, the member withdrawn or gone) deletes what it applied
 * (argo-cd controller/appcontroller.go `finalizeApplicationDeletion`), so a Service no longer
 * exported is no longer exported.
 */
const RESOURCES_FINALIZER = 'resources-finalizer.argocd.argoproj.io';

/**
 * The units of a bundle outside its layers (layer-paths.ts), each an Application per cluster that
 * has it, from an ApplicationSet of its own, `<clusterset>-<dir>`, without RollingSync: synced at
 * once and on their own, so none holds back a bundle, a step or another cluster, and no sync of a
 * bundle waits for them. The ApplicationSets are written even when no cluster has the unit, so that
 * re-applying `argocd/` after the last one is gone drops its Application (`deleteInCluster`)
 * instead of leaving the old ApplicationSet in place.
 * - every one retries without end (UNIT_RETRY) until what it needs exists;
 * - `exports`: waits for the application's Namespace; its Applications delete their
 *   ServiceExports when they go;
 * - `verify` and `tier-restart`: a Job each (and its RBAC), plain resources of their Application,
 *   not hooks of the bundle's: a PostSync hook would make every sync of the bundle wait for the
 *   ClusterSet's health first (gitops-engine sync_context.go `Sync` waits for a wave's health
 *   before the next phase), so a member that never connects would hold its sync forever and no
 *   later commit would reach it. A verification keeps what it applied when it goes, as the bundles
 *   do; a Tier restart that goes (no custom Tier left) takes its Job and RBAC with it.
 */
interface Unit {
  readonly dir: string;
  readonly of: (c: ClusterDeliveryInputs) => boolean;
  /** deleting its Application deletes what it applied */
  readonly cascade: boolean;
}
const UNITS: readonly Unit[] = [
  { dir: EXPORTS_DIRECTORY, of: (c) => c.exportNamespaces.length > 0, cascade: true },
  { dir: VERIFY_DIRECTORY, of: (c) => c.verify, cascade: false },
  { dir: TIER_RESTART_DIRECTORY, of: (c) => c.tierRestart, cascade: true },
];

/**
 * The ApplicationSet, an object of the whole ClusterSet: it syncs the leader's bundle before the
 * members' (Progressive Syncs, beta since Argo CD 3.3: Argo CD has no dependencies between
 * Applications, argo-cd #3454).
 */
export function argoCdClusterSetObjects(clusters: readonly ClusterDeliveryInputs[]): Record<string, KubeObject[]> {
  const argocd = clusters[0]?.delivery.argocd;
  if (!argocd) return {};
  const clusterSet = clusters[0]!.clusterSet;
  const targets = clusters.map((c) => targetOf(argocd, clusterSet, c.clusterID, c.role, c.destination));
  const unitSets = UNITS.map((u) =>
    unitApplicationSet(
      argocd,
      clusterSet,
      u,
      clusters.flatMap((c, i) => (u.of(c) ? [unitTargetOf(targets[i]!, u.dir)] : [])),
      targets,
    ),
  );
  return {
    [ARGOCD_FOLDER]: [asKubeObject(applicationSet(argocd, clusterSet, targets)), ...unitSets.map(asKubeObject)],
    [ARGOCD_HEALTH_FOLDER]: [argoCdHealthConfigMap(argocd.namespace)],
  };
}

/** A cluster's plain Application, the same as the ApplicationSet's, for an Argo CD without progressive syncs. */
export function argoCdClusterObjects(inputs: ClusterDeliveryInputs): EngineObject[] {
  const argocd = inputs.delivery.argocd;
  if (!argocd) return [];
  const target = targetOf(argocd, inputs.clusterSet, inputs.clusterID, inputs.role, inputs.destination);
  return [
    { folder: ARGOCD_APPLICATIONS_FOLDER, object: asKubeObject(application(argocd, inputs.clusterSet, target)) },
    ...UNITS.filter((u) => u.of(inputs)).map((u) => ({
      folder: ARGOCD_APPLICATIONS_FOLDER,
      object: asKubeObject(unitApplication(argocd, inputs.clusterSet, u, unitTargetOf(target, u.dir))),
    })),
  ];
}

/**
 * The list generator's elements and the destination template, with a field per destination form
 * the fleet (`all`) uses: an ApplicationSet that lists no cluster yet still has a destination.
 */
function listOf(targets: readonly Target[], all: readonly Target[] = targets) {
  // goTemplate renders the other form's field empty
  const byName = all.some((t) => 'name' in t.destination);
  const byServer = all.some((t) => 'server' in t.destination);
  const elements = targets.map((t) => ({
    name: t.name,
    clusterID: t.clusterID,
    role: t.role,
    path: t.path,
    ...(byName && { destinationName: 'name' in t.destination ? t.destination.name : '' }),
    ...(byServer && { destinationServer: 'server' in t.destination ? t.destination.server : '' }),
  }));
  const destination = {
    ...(byName && { name: '{{.destinationName}}' }),
    ...(byServer && { server: '{{.destinationServer}}' }),
  };
  return { elements, destination };
}

const templateLabels = (clusterSet: string) => ({
  [LABELS.managedBy]: MANAGED_BY,
  [LABELS.clusterSet]: clusterSet,
  [LABELS.clusterID]: '{{.clusterID}}',
  [LABELS.role]: '{{.role}}',
});

/** A unit's ApplicationSet, `<clusterset>-<dir>` (UNITS). */
function unitApplicationSet(argocd: ArgoCdDelivery, clusterSet: string, unit: Unit, targets: readonly Target[], all: readonly Target[]): IApplicationSet {
  const { elements, destination } = listOf(targets, all);
  const spec = applicationSpec(argocd, '{{.path}}', destination);
  return {
    apiVersion: 'argoproj.io/v1alpha1',
    kind: 'ApplicationSet',
    metadata: {
      name: engineName(clusterSet, unit.dir),
      namespace: argocd.namespace,
      labels: { [LABELS.managedBy]: MANAGED_BY, [LABELS.clusterSet]: clusterSet },
    },
    spec: {
      goTemplate: true,
      goTemplateOptions: ['missingkey=error'],
      generators: [{ list: { elements } }],
      // without preserveResourcesOnDeletion the controller adds the resources finalizer to a
      // template without finalizers (applicationset/utils/utils.go RenderTemplateParams)
      ...(!unit.cascade && { syncPolicy: { preserveResourcesOnDeletion: true } }),
      template: {
        metadata: { name: '{{.name}}', labels: templateLabels(clusterSet), ...(unit.cascade && { finalizers: [RESOURCES_FINALIZER] }) },
        spec: { ...spec, syncPolicy: { ...spec.syncPolicy, retry: UNIT_RETRY } },
      },
    },
  };
}

/**
 * A cluster's unit Application for an app-of-apps: after the members (wave 2); nothing waits for
 * it. The app-of-apps prunes it when its file leaves `argocd/applications/`; an exports
 * Application's finalizer then deletes its ServiceExports.
 */
function unitApplication(argocd: ArgoCdDelivery, clusterSet: string, unit: Unit, t: Target): IApplication {
  const app = application(argocd, clusterSet, t);
  return {
    ...app,
    metadata: { ...app.metadata, annotations: { [ARGOCD_SYNC_WAVE]: '2' }, ...(unit.cascade && { finalizers: [RESOURCES_FINALIZER] }) },
    spec: { ...app.spec, syncPolicy: { ...app.spec.syncPolicy, retry: UNIT_RETRY } },
  };
}

function applicationSet(argocd: ArgoCdDelivery, clusterSet: string, targets: readonly Target[]): IApplicationSet {
  const { elements, destination } = listOf(targets);
  return {
    apiVersion: 'argoproj.io/v1alpha1',
    kind: 'ApplicationSet',
    metadata: { name: engineName(clusterSet), namespace: argocd.namespace, labels: { [LABELS.managedBy]: MANAGED_BY, [LABELS.clusterSet]: clusterSet } },
    spec: {
      goTemplate: true,
      goTemplateOptions: ['missingkey=error'],
      generators: [{ list: { elements } }],
      // the leader's bundle must be healthy before members join (architecture.md)
      strategy: {
        type: 'RollingSync',
        rollingSync: {
          steps: [
            { matchExpressions: [{ key: LABELS.role, operator: 'In', values: ['leader', 'dual-role'] }] },
            { matchExpressions: [{ key: LABELS.role, operator: 'In', values: ['member'] }] },
          ],
        },
      },
      // deleting the ApplicationSet must not uninstall the CNI of every cluster
      syncPolicy: { preserveResourcesOnDeletion: true },
      template: {
        metadata: { name: '{{.name}}', labels: templateLabels(clusterSet) },
        spec: applicationSpec(argocd, '{{.path}}', destination),
      },
    },
  };
}

function application(argocd: ArgoCdDelivery, clusterSet: string, t: Target): IApplication {
  return {
    apiVersion: 'argoproj.io/v1alpha1',
    kind: 'Application',
    metadata: {
      name: t.name,
      namespace: argocd.namespace,
      labels: { [LABELS.managedBy]: MANAGED_BY, [LABELS.clusterSet]: clusterSet, [LABELS.clusterID]: t.clusterID, [LABELS.role]: t.role },
      // leader first when an app-of-apps applies this folder (needs an Application health check, argo-cd #7978)
      annotations: { [ARGOCD_SYNC_WAVE]: t.role === 'member' ? '1' : '0' },
    },
    spec: applicationSpec(argocd, t.path, t.destination),
  };
}

/**
 * No `resources-finalizer.argocd.argoproj.io` (the exports Applications aside): deleting a
 * bundle's Application leaves the cluster's Antrea running. The bundle's last wave is its last
 * layer, the ClusterSet's: a sync ends once that wave is applied (gitops-engine sync_context.go
 * `Sync`), so a ClusterSet that never connects holds no later commit. Automated sync prunes, except what the bundle guards; under RollingSync the
 * ApplicationSet controller turns automated sync off and triggers the syncs itself.
 */
function applicationSpec(argocd: ArgoCdDelivery, path: string, destination: Destination | Record<string, string>): ApplicationSpec {
  return {
    project: argocd.project,
    source: { repoURL: argocd.repoURL, targetRevision: argocd.targetRevision, path },
    destination,
    syncPolicy: {
      automated: { prune: true, selfHeal: true },
      syncOptions: syncOptions(),
      retry: RETRY,
    },
    ignoreDifferences: ignoreDifferences(),
  };
}

/** delivery-destination-missing stops synth for a cluster without one, so a gap here is a bug. */
function destinationOf(clusterID: string, delivery: ClusterDeliveryInputs['destination']): Destination {
  if (!delivery.argocd) throw new Error(`cluster "${clusterID}" reached Argo CD synth without a destination`);
  return delivery.argocd;
}
