import type { CrdModel } from '../../../crd';

/** The 20 `*.crd.antrea.io` CRDs every cluster gets. */
export const coreCrds: readonly CrdModel[] = [];
