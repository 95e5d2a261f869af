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

/** Argo CD: an ApplicationSet with RollingSync (or plain Applications), sync waves per layer, `argocd-cm` health rules in Lua. */
export const argoCd: DeliveryEngine = {
  key: 'argocd',
  title: 'Argo CD',
  tool: 'argocd',
  versions: ARGOCD_VERSIONS,
  statesKubernetes: 'is tested with',
  healthy: 'Healthy',
  modeOf: () => MODE,
  // an Application needs its cluster's destination
  destinations: argoCdDestinations,
  missingDestinations: argoCdMissingDestinations,
  clusterSettings: argoCdClusterSettings,
  settings: argoCdSettings,
  canBuild: (_, clusters) => clusters.every((c) => c.cluster.delivery.argocd),
  clusterSetObjects: argoCdClusterSetObjects,
  clusterObjects: argoCdClusterObjects,
  // every Argo CD object goes into the Argo CD Namespace the user applies it to
  instanceOf: (folder, object) =>
    folder === ARGOCD_FOLDER || folder === ARGOCD_APPLICATIONS_FOLDER ? `Argo CD in ${object.metadata.namespace ?? ''}` : undefined,
  annotate: (annotations, object) => ({ ...annotations, [ARGOCD_SYNC_WAVE]: syncWaveOf(object) }),
  guard: withArgoCdGuard,
  isGuarded: isArgoCdGuarded,
  diagramLine: (definition) => `Argo CD ApplicationSet in ${definition.spec.delivery.argocd!.namespace}, project ${definition.spec.delivery.argocd!.project}`,
  notesSection: (definition, clusters) => argoCdNotesSection(definition, clusters),
  handOver: argoCdHandOver,
  checklist: argoCdChecklist,
};
