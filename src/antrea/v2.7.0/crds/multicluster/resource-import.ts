/**
 * ResourceImport: the leader's merged view of exports, read by every member. Several JSON
 * keys are lower-case (`clusterinfo`, `clusternetworkpolicy`, `externalentity`,
 * `externalentityspec`) and `clusterID` is a list; those are Antrea's json tags, kept as is.
 */
import type { CrdModel } from '../../../crd';
import { type Schema, array, object, required, string } from '../../../schema';
import { mcClusterNetworkPolicySpec } from './cluster-network-policy-spec';
import {
  CONTROLLER_GEN,
  MC_GROUP,
  MC_LABELS,
  ageColumn,
  clusterInfo,
  clusterStatuses,
  endpointSubsets,
  externalEntitySpec,
  labelIdentitySpec,
  rawResource,
  rootObject,
} from './common';
import { anyObject, metaConditions, sessionAffinityConfig } from './kubernetes';
import { serviceImportClusters, serviceImportPorts, serviceImportType } from './mcs';

/**
 * The mcs-api v0.5.0 ServiceImport Go type, which is newer than the member manifest's
 * ServiceImport CRD: up to two IPs, IP families, traffic policies and status conditions.
 */
const embeddedServiceImport = (): Schema =>
  object({
    apiVersion: string(),
    kind: string(),
    metadata: anyObject(),
    spec: required(['ports', 'type'], {
      internalTrafficPolicy: string(),
      ipFamilies: array(string(), { maxItems: 2 }),
      ips: array(string(), { maxItems: 2 }),
      ports: serviceImportPorts(),
      sessionAffinity: string(),
      sessionAffinityConfig: sessionAffinityConfig(),
      trafficDistribution: string(),
      type: serviceImportType(),
    }),
    status: object({ clusters: serviceImportClusters(), conditions: metaConditions() }),
  });

const schema = rootObject({
  spec: object({
    clusterID: array(string()),
    clusterinfo: clusterInfo(),
    clusternetworkpolicy: mcClusterNetworkPolicySpec(),
    endpoints: endpointSubsets(),
    externalentity: object({ externalentityspec: externalEntitySpec() }),
    kind: string(),
    labelIdentity: labelIdentitySpec(),
    name: string(),
    namespace: string(),
    raw: rawResource(),
    serviceImport: embeddedServiceImport(),
  }),
  status: object({ clusterStatuses: clusterStatuses() }),
});

export const resourceImport: CrdModel = {
  group: MC_GROUP,
  kind: 'ResourceImport',
  listKind: 'ResourceImportList',
  plural: 'resourceimports',
  singular: 'resourceimport',
  scope: 'Namespaced',
  labels: MC_LABELS,
  annotations: CONTROLLER_GEN,
  versions: [
    {
      name: 'v1alpha1',
      served: true,
      storage: true,
      schema,
      subresources: { status: {} },
      printerColumns: [
        { name: 'Kind', type: 'string', jsonPath: '.spec.kind' },
        { name: 'Namespace', type: 'string', jsonPath: '.spec.namespace' },
        { name: 'Name', type: 'string', jsonPath: '.spec.name' },
        ageColumn,
      ],
    },
  ],
};
