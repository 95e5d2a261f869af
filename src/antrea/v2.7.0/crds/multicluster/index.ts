import type { CrdModel } from '../../../crd';

/** Multi-cluster CRDs of the leader manifest. */
export const leaderCrds: readonly CrdModel[] = [];
/** Multi-cluster CRDs of the member manifest. */
export const memberCrds: readonly CrdModel[] = [];
