import type { CrdModel } from '../crd';
import { editCrd, remove, type CrdChanges } from '../derive';
import { antreaAgentInfo } from '../v2.7.0/crds/core/antrea-agent-info';
import { clusterGroup } from '../v2.7.0/crds/core/cluster-group';
import { clusterInfoImport, clusterSet, gateway, labelIdentity, memberClusterAnnounce, resourceExport, resourceImport } from '../v2.7.0/crds/multicluster';

/** v2.6 added the agent's `networkInfo` and ClusterGroup `nodeSelector`. */
export const core: CrdChanges = {
  put: [
    editCrd(antreaAgentInfo, [{ version: 'v1beta1', path: ['networkInfo'], edit: remove }]),
    editCrd(clusterGroup, [{ version: 'v1beta1', path: ['spec', 'nodeSelector'], edit: remove }]),
  ],
};

// v2.6 regenerated the multi-cluster CRDs with controller-gen v0.21.0
const olderControllerGen = (m: CrdModel, edits: Parameters<typeof editCrd>[1] = []): CrdModel =>
  editCrd(m, edits, { annotations: { ...m.annotations, 'controller-gen.kubebuilder.io/version': 'v0.18.0' } });

// ...and vendored a newer MCS ServiceImport into ResourceImport: two IPs, IP families, traffic policies, conditions
const SERVICE_IMPORT = ['spec', 'serviceImport'];
const resourceImportV253 = olderControllerGen(
  resourceImport,
  [
    ['spec', 'internalTrafficPolicy'],
    ['spec', 'ipFamilies'],
    ['spec', 'trafficDistribution'],
    ['status', 'conditions'],
  ].map((p) => ({ version: 'v1alpha1', path: [...SERVICE_IMPORT, ...p], edit: remove })),
);

const resourceImportIps = editCrd(resourceImportV253, [
  { version: 'v1alpha1', path: [...SERVICE_IMPORT, 'spec', 'ips'], edit: (s) => ({ ...s, maxItems: 1 }) },
]);

export const leader: CrdChanges = {
  put: [olderControllerGen(clusterSet), olderControllerGen(memberClusterAnnounce), olderControllerGen(resourceExport), resourceImportIps],
};

export const member: CrdChanges = {
  put: [olderControllerGen(clusterInfoImport), olderControllerGen(gateway), olderControllerGen(labelIdentity)],
};
