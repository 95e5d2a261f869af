import { clusterSets } from './cluster-sets';
import type { BundlePart } from './context';

/** The parts of every bundle; each decides by the cluster's role what it adds. */
export const bundleParts: readonly BundlePart[] = [clusterSets];
