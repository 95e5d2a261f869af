/**
 * ResourceExport: a member's (or an admin's) export into the leader's common area. The spec
 * names the source object and carries exactly one payload, chosen by `kind`.
 */
import type { CrdModel } from '../../../crd';
import { object, string } from '../../../schema';
import { mcClusterNetworkPolicySpec } from './cluster-network-policy-spec';
import {
  CONTROLLER_GEN,
  MC_GROUP,
  MC_LABELS,
  ageColumn,
  clusterInfo,
  conditions,
  endpointSubsets,
  externalEntitySpec,
  rawResource,
  rootObject,
} from './common';
import { serviceSpec } from './kubernetes';

const schema = rootObject({
  spec: object({
    clusterID: string(),
    clusterInfo: clusterInfo(),
    clusterNetworkPolicy: mcClusterNetworkPolicySpec(),
    endpoints: endpointSubsets(),
    externalEntity: object({ externalEntitySpec: externalEntitySpec() }),
    kind: string(),
    labelIdentity: object({ normalizedLabel: string() }),
    name: string(),
    namespace: string(),
    raw: rawResource(),
    service: object({ serviceSpec: serviceSpec() }),
  }),
  status: object({ conditions: conditions() }),
});

export const resourceExport: CrdModel = {
  group: MC_GROUP,
  kind: 'ResourceExport',
  listKind: 'ResourceExportList',
  plural: 'resourceexports',
  singular: 'resourceexport',
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
        { name: 'Cluster ID', type: 'string', jsonPath: '.spec.clusterID' },
        { name: 'Kind', type: 'string', jsonPath: '.spec.kind' },
        { name: 'Namespace', type: 'string', jsonPath: '.spec.namespace' },
        { name: 'Name', type: 'string', jsonPath: '.spec.name' },
        ageColumn,
      ],
    },
  ],
};
