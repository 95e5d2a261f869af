import type { DeliveryEngine, DeliveryMode } from '../engine';
import { fluxMissingDestinations, fluxClusterSettings, fluxSettings } from './settings';
import { fluxDestinations } from './destinations';
import { fluxChecklist } from './checklist';
import { FLUX_VERSIONS } from './versions';
import { FLUX_SUBSTITUTE, isFluxGuarded, withFluxGuard } from './guards';
import { fluxHandOver } from './hand-over';
import { fluxClusterObjects, FLUX_FOLDER } from './kustomizations';
import { fluxNotesSection } from './notes';

const HUB: DeliveryMode = {
  engine: 'flux',
  id: 'flux-hub',
  name: 'a hub Flux',
  section: 'Delivery with Flux (hub)',
  appliedFrom: 'a hub Flux (the Kustomizations in `flux/`)',
  outsideTheDefinition: true,
  ordersLeaderFirst: true,
};
const PER_CLUSTER: DeliveryMode = {
  engine: 'flux',
  id: 'flux-per-cluster',
  name: 'one Flux per cluster',
  section: 'Delivery with Flux (one per cluster)',
  appliedFrom: "each cluster's own Flux (`flux-per-cluster/<clusterID>/`)",
  outsideTheDefinition: false,
  ordersLeaderFirst: false,
};

/** Flux: a Kustomization per layer chained by `dependsOn`, units after the last layer, `healthCheckExprs` in CEL. */
export const flux: DeliveryEngine = {
  key: 'flux',
  title: 'Flux',
  tool: 'flux',
  versions: FLUX_VERSIONS,
  statesKubernetes: 'supports',
  healthy: 'Ready',
  // a kubeconfig Secret on any cluster makes Flux a hub that applies every cluster's Kustomizations
  modeOf: (_, clusters) => (clusters.some((c) => c.cluster.delivery.flux?.kubeConfigSecretRef) ? HUB : PER_CLUSTER),
  destinations: fluxDestinations,
  missingDestinations: fluxMissingDestinations,
  clusterSettings: fluxClusterSettings,
  settings: fluxSettings,
  canBuild: () => true,
  clusterSetObjects: () => ({}),
  clusterObjects: fluxClusterObjects,
  // a hub's Kustomizations go into the hub's Namespace; a per-cluster Flux (`flux-per-cluster/<clusterID>`) is the cluster's own
  instanceOf: (folder, object) => (folder === FLUX_FOLDER ? `hub Flux in ${object.metadata.namespace ?? ''}` : undefined),
  // no Kustomization of ours sets postBuild, but a user's parent might: keep `${…}` and `$$` as written
  annotate: (annotations, object) => (/\$[{$]/.test(JSON.stringify(object)) ? { ...annotations, [FLUX_SUBSTITUTE]: 'disabled' } : { ...annotations }),
  guard: withFluxGuard,
  isGuarded: isFluxGuarded,
  diagramLine: (definition) => `Flux Kustomizations in ${definition.spec.delivery.flux!.namespace}`,
  notesSection: (definition, clusters, mode) => fluxNotesSection(definition, clusters, mode.id === HUB.id),
  handOver: fluxHandOver,
  checklist: fluxChecklist,
};
