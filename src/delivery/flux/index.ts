import type { DeliveryEngine, DeliveryMode } from '../engine';
import { fluxMissingDestinations, fluxClusterSettings, fluxSettings } from './settings';
import { fluxDestinations } from './destinations';
import { fluxChecklist } from './checklist';
import { FLUX_VERSIONS } from './versions';
import { FLUX_SUBSTITUTE, isFluxGuarded, withFluxGuard } from './guards';
import { fluxHandOver } from './hand-over';
import { isFluxHub } from './hub';
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

/**
 * What kustomize-controller adds to what it applies: `kustomize.toolkit.fluxcd.io/*` (its
 * `name`/`namespace` inventory labels, fluxcd/pkg ssa's ownership marks).
 */
const MARK = /^kustomize\.toolkit\.fluxcd\.io\//;

/** Flux: a Kustomization per layer chained by `dependsOn`, units after the last layer, `healthCheckExprs` in CEL. */
export const flux: DeliveryEngine = {
  key: 'flux',
  objects: {
    canBuild: () => true,
    inputs: (_, clusters) => ({ fluxHub: isFluxHub(clusters) }),
    clusterSetObjects: () => ({}),
    clusterObjects: fluxClusterObjects,
    // a hub's Kustomizations go into the hub's Namespace; a per-cluster Flux (`flux-per-cluster/<clusterID>`) is the cluster's own
    instanceOf: (folder, object) => (folder === FLUX_FOLDER ? `hub Flux in ${object.metadata.namespace ?? ''}` : undefined),
    // no Kustomization of ours sets postBuild, but a user's parent might: keep `${…}` and `$$` as written
    annotate: (annotations, object) => (/\$[{$]/.test(JSON.stringify(object)) ? { ...annotations, [FLUX_SUBSTITUTE]: 'disabled' } : { ...annotations }),
    guard: withFluxGuard,
    isGuarded: isFluxGuarded,
  },
  rules: {
    versions: FLUX_VERSIONS,
    modeOf: (_, clusters) => (isFluxHub(clusters) ? HUB : PER_CLUSTER),
    destinations: fluxDestinations,
    missingDestinations: fluxMissingDestinations,
    clusterSettings: fluxClusterSettings,
    settings: fluxSettings,
  },
  api: {
    schemas: { group: (g) => g.endsWith('.toolkit.fluxcd.io'), package: '@kubernetes-models/flux-cd' },
    isMark: (key) => MARK.test(key),
  },
  readme: {
    title: 'Flux',
    tool: 'flux',
    statesKubernetes: 'supports',
    healthy: 'Ready',
    diagramLine: (definition) => `Flux Kustomizations in ${definition.spec.delivery.flux!.namespace}`,
    notesSection: (definition, clusters, mode) => fluxNotesSection(definition, clusters, mode.id === HUB.id),
  },
  handOver: fluxHandOver,
  checklist: fluxChecklist,
};
