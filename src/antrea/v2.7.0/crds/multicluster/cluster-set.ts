/**
 * ClusterSet: served as v1alpha1 (legacy, leader listed members) and v1alpha2 (storage,
 * carries the local cluster ID). Both versions share status and printer columns; there is
 * no conversion webhook.
 */
import type { CrdModel, PrinterColumn } from '../../../crd';
import { type Schema, array, int32, int64, object, required, string } from '../../../schema';
import { CONTROLLER_GEN, MC_GROUP, MC_LABELS, ageColumn, clusterStatuses, conditions, rootObject } from './common';

const columns: readonly PrinterColumn[] = [
  { name: 'Leader Cluster Namespace', type: 'string', jsonPath: '.spec.namespace' },
  { name: 'Total Clusters', type: 'string', jsonPath: '.status.totalClusters' },
  { name: 'Ready Clusters', type: 'string', jsonPath: '.status.readyClusters' },
  ageColumn,
];

const status = (): Schema =>
  object({
    clusterStatuses: clusterStatuses(),
    conditions: conditions(),
    observedGeneration: int64(),
    readyClusters: int32(),
    totalClusters: int32(),
  });

/** Exactly one leader per ClusterSet. */
const leaders = (member: Schema): Schema => array(member, { maxItems: 1, minItems: 1 });

/** v1alpha1 MemberCluster, the type of both `leaders` and `members`. */
const v1alpha1Member = (): Schema => object({ clusterID: string(), secret: string(), server: string(), serviceAccount: string() });

const v1alpha1 = rootObject({
  spec: required(['leaders'], {
    leaders: leaders(v1alpha1Member()),
    members: array(v1alpha1Member()),
    namespace: string(),
  }),
  status: status(),
});

// v2.0 dropped the leader's `serviceAccount`; v1.13 added the required local `clusterID`.
const v1alpha2 = rootObject({
  spec: required(['clusterID', 'leaders'], {
    clusterID: string(),
    leaders: leaders(object({ clusterID: string(), secret: string(), server: string() })),
    namespace: string(),
  }),
  status: status(),
});

export const clusterSet: CrdModel = {
  group: MC_GROUP,
  kind: 'ClusterSet',
  listKind: 'ClusterSetList',
  plural: 'clustersets',
  singular: 'clusterset',
  scope: 'Namespaced',
  labels: MC_LABELS,
  annotations: CONTROLLER_GEN,
  versions: [
    { name: 'v1alpha1', served: true, storage: false, schema: v1alpha1, subresources: { status: {} }, printerColumns: columns },
    { name: 'v1alpha2', served: true, storage: true, schema: v1alpha2, subresources: { status: {} }, printerColumns: columns },
  ],
};
