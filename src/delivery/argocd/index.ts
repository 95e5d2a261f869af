import type { DeliveryEngine, DeliveryMode } from '../engine';
import { argoCdMissingDestinations, argoCdClusterSettings, argoCdSettings } from './settings';
import { argoCdDestinations } from './destinations';
import { argoCdChecklist } from './checklist';
import { ARGOCD_VERSIONS } from './versions';
import { argoCdClusterObjects, argoCdClusterSetObjects, ARGOCD_APPLICATIONS_FOLDER, ARGOCD_FOLDER } from './applications';
import { isArgoCdGuarded, withArgoCdGuard } from './guards';
import { argoCdHandOver } from './hand-over';
import { argoCdNotesSection } from './notes';
import { ARGOCD_SYNC_WAVE, syncWaveOf } from './sync-waves';

const MODE: DeliveryMode = {
  engine: 'argocd',
  id: 'argocd',
  name: 'Argo CD',
  section: 'Delivery with Argo CD',
  appliedFrom: 'Argo CD (the ApplicationSet in `argocd/`, or the Applications in `argocd/applications/`)',
  outsideTheDefinition: true,
  ordersLeaderFirst: true,
};

/**
 * What Argo CD adds to what it applies: `argocd.argoproj.io/*` (its tracking annotation, its sync
 * state), gitops-engine's and Argo CD's `common` packages.
 */
const MARK = /^argocd\.argoproj\.io\//;

/** Argo CD: an ApplicationSet with RollingSync (or plain Applications), sync waves per layer, `argocd-cm` health rules in Lua. */
export const argoCd: DeliveryEngine = {
  key: 'argocd',
  objects: {
    canBuild: (_, clusters) => clusters.every((c) => c.cluster.delivery.argocd),
    inputs: () => ({}),
    clusterSetObjects: argoCdClusterSetObjects,
    clusterObjects: argoCdClusterObjects,
    // every Argo CD object goes into the Argo CD Namespace the user applies it to
    instanceOf: (folder, object) =>
      folder === ARGOCD_FOLDER || folder === ARGOCD_APPLICATIONS_FOLDER ? `Argo CD in ${object.metadata.namespace ?? ''}` : undefined,
    annotate: (annotations, object) => ({ ...annotations, [ARGOCD_SYNC_WAVE]: syncWaveOf(object) }),
    guard: withArgoCdGuard,
    isGuarded: isArgoCdGuarded,
  },
  rules: {
    versions: ARGOCD_VERSIONS,
    modeOf: () => MODE,
    // an Application needs its cluster's destination
    destinations: argoCdDestinations,
    missingDestinations: argoCdMissingDestinations,
    clusterSettings: argoCdClusterSettings,
    settings: argoCdSettings,
  },
  api: {
    schemas: { group: (g) => g === 'argoproj.io', package: '@kubernetes-models/argo-cd' },
    isMark: (key) => MARK.test(key),
  },
  readme: {
    title: 'Argo CD',
    tool: 'argocd',
    statesKubernetes: 'is tested with',
    healthy: 'Healthy',
    diagramLine: (definition) => `Argo CD ApplicationSet in ${definition.spec.delivery.argocd!.namespace}, project ${definition.spec.delivery.argocd!.project}`,
    notesSection: (definition, clusters) => argoCdNotesSection(definition, clusters),
  },
  handOver: argoCdHandOver,
  checklist: argoCdChecklist,
};
