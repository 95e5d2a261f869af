import type { CrdModel } from '../../../crd';
import { clusterInfoImport } from './cluster-info-import';
import { clusterSet } from './cluster-set';
import { gateway } from './gateway';
import { labelIdentity } from './label-identity';
import { memberClusterAnnounce } from './member-cluster-announce';
import { resourceExport } from './resource-export';
import { resourceImport } from './resource-import';
import { serviceExport } from './service-export';
import { serviceImport } from './service-import';

export { clusterInfoImport, clusterSet, gateway, labelIdentity, memberClusterAnnounce, resourceExport, resourceImport, serviceExport, serviceImport };

/** Multi-cluster CRDs of the leader manifest. */
export const leaderCrds: readonly CrdModel[] = [clusterSet, memberClusterAnnounce, resourceExport, resourceImport];
/**
 * Multi-cluster CRDs of the member manifest. ClusterSet is the same model object as the
 * leader's, so a dual-role bundle can dedupe it by identity.
 */
export const memberCrds: readonly CrdModel[] = [clusterInfoImport, clusterSet, gateway, labelIdentity, serviceExport, serviceImport];
