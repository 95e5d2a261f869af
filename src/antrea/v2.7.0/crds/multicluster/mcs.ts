/**
 * Shapes of the Kubernetes Multi-Cluster Services API (`multicluster.x-k8s.io`).
 * Two revisions are in play: the member manifest ships the older v1alpha1 ServiceImport CRD,
 * while ResourceImport embeds the ServiceImport Go type of mcs-api v0.5.0. The parts they
 * share live here.
 */
import { type Schema, array, atomicArray, enumOf, required, string } from '../../../schema';
import { portFields } from './kubernetes';

export const MCS_GROUP = 'multicluster.x-k8s.io';

/** ServiceImportSpec.type */
export const serviceImportType = (): Schema => enumOf(['ClusterSetIP', 'Headless']);

/** ServiceImportSpec.ports: an atomic list of ServicePort, `port` required. */
export const serviceImportPorts = (): Schema => atomicArray(required(['port'], portFields()));

/** ServiceImportStatus.clusters, a list-map keyed by cluster name. */
export const serviceImportClusters = (): Schema =>
  array(required(['cluster'], { cluster: string() }), {
    'x-kubernetes-list-map-keys': ['cluster'],
    'x-kubernetes-list-type': 'map',
  });
