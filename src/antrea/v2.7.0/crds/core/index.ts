import type { CrdModel } from '../../../crd';
import { clusterNetworkPolicy } from './cluster-network-policy';

/** The 20 `*.crd.antrea.io` CRDs every cluster gets, sorted by CRD name. */
export const coreCrds: readonly CrdModel[] = [clusterNetworkPolicy];
