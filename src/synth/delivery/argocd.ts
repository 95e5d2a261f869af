import type { IApplication } from '@kubernetes-models/argo-cd/argoproj.io/v1alpha1/Application';
import type { IApplicationSet } from '@kubernetes-models/argo-cd/argoproj.io/v1alpha1/ApplicationSet';
import type { ClusterSet } from '../../model/clusterset';
import { asKubeObject, type KubeObject } from '../../kube/kube-object';
import { bundlePath, engineName, LABELS, MANAGED_BY, type Role } from './engine-names';
import { EXPORTS_DIRECTORY } from './layer-paths';
import type { ClusterDeliveryInputs, EngineObject } from './cluster-inputs';
import { ignoreDifferences, syncOptions } from './ignore-differences';
import { argoCdHealthConfigMap } from './argocd-health';
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

/** A cluster's exports (`<bundle>/exports/`) as their own Application, `<clusterset>-<clusterID>-exports`. */
const exportsTargetOf = (t: Target): Target => ({ ...t, name: engineName(t.name, EXPORTS_DIRECTORY), path: `${t.path}/${EXPORTS_DIRECTORY}` });

/**
 * The exports' sync retries without end (a negative `retry.limit`, argo-cd
 * docs/operator-manual/application.yaml): until the application's own delivery creates the
 * Namespace, the apply is refused and the sync fails, and an automated sync does not try a
 * failed revision again once its retries are spent (argo-cd controller/appcontroller.go
 * autoSync). The backoff caps at the same 3 minutes as the bundle's.
 */
const EXPORTS_RETRY = { limit: -1, backoff: { duration: '10s', factor: 2, maxDuration: '3m' } };

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
  const exporting = clusters.flatMap((c, i) => (c.exportNamespaces.length > 0 ? [exportsTargetOf(targets[i]!)] : []));
  return {
    // the exports' ApplicationSet even when no cluster exports: a revision that removes the last
    // export must update it (to no Application), not leave the one that still generates it
    [ARGOCD_FOLDER]: [asKubeObject(applicationSet(argocd, clusterSet, targets)), asKubeObject(exportsApplicationSet(argocd, clusterSet, exporting, targets))],
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
    ...(inputs.exportNamespaces.length > 0
      ? [{ folder: ARGOCD_APPLICATIONS_FOLDER, object: asKubeObject(exportsApplication(argocd, inputs.clusterSet, exportsTargetOf(target))) }]
      : []),
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

/**
 * `resources-finalizer.argocd.argoproj.io` on the exports Applications: one that goes (its
 * cluster's last export removed, the member withdrawn or gone) deletes its ServiceExports
 * (argo-cd controller/appcontroller.go `finalizeApplicationDeletion`), so a Service no longer
 * exported is no longer exported. Nothing else is in them.
 */
const EXPORTS_FINALIZERS = ['resources-finalizer.argocd.argoproj.io'];

/**
 * The exports' ApplicationSet, `<clusterset>-exports`: one Application per exporting cluster,
 * synced at once and on their own (no RollingSync), so a Namespace the application has not created
 * yet never holds back a bundle, a step, or another cluster. The ApplicationSet controller deletes
 * an Application it no longer generates (`deleteInCluster`), and the finalizer its template
 * carries takes the Application's ServiceExports with it.
 */
function exportsApplicationSet(argocd: ArgoCdDelivery, clusterSet: string, targets: readonly Target[], all: readonly Target[]): IApplicationSet {
  const { elements, destination } = listOf(targets, all);
  const spec = applicationSpec(argocd, '{{.path}}', destination);
  return {
    apiVersion: 'argoproj.io/v1alpha1',
    kind: 'ApplicationSet',
    metadata: {
      name: engineName(clusterSet, EXPORTS_DIRECTORY),
      namespace: argocd.namespace,
      labels: { [LABELS.managedBy]: MANAGED_BY, [LABELS.clusterSet]: clusterSet },
    },
    spec: {
      goTemplate: true,
      goTemplateOptions: ['missingkey=error'],
      generators: [{ list: { elements } }],
      template: {
        metadata: { name: '{{.name}}', labels: templateLabels(clusterSet), finalizers: EXPORTS_FINALIZERS },
        spec: { ...spec, syncPolicy: { ...spec.syncPolicy, retry: EXPORTS_RETRY } },
      },
    },
  };
}

/**
 * A cluster's exports Application for an app-of-apps: after the members (wave 2); nothing waits
 * for it. The app-of-apps prunes it when its file leaves `argocd/applications/`, and its finalizer
 * deletes its ServiceExports.
 */
function exportsApplication(argocd: ArgoCdDelivery, clusterSet: string, t: Target): IApplication {
  const app = application(argocd, clusterSet, t);
  return {
    ...app,
    metadata: { ...app.metadata, annotations: { [ARGOCD_SYNC_WAVE]: '2' }, finalizers: EXPORTS_FINALIZERS },
    spec: { ...app.spec, syncPolicy: { ...app.spec.syncPolicy, retry: EXPORTS_RETRY } },
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
 * bundle's Application leaves the cluster's Antrea running. Automated sync prunes, except what the bundle guards; under RollingSync the
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
      // CRDs can take a moment to be established after their wave (argo-cd #1940)
      retry: { limit: 5, backoff: { duration: '10s', factor: 2, maxDuration: '3m' } },
    },
    ignoreDifferences: ignoreDifferences(),
  };
}

/** delivery-destination-missing stops synth for a cluster without one, so a gap here is a bug. */
function destinationOf(clusterID: string, delivery: ClusterDeliveryInputs['destination']): Destination {
  if (!delivery.argocd) throw new Error(`cluster "${clusterID}" reached Argo CD synth without a destination`);
  return delivery.argocd;
}
