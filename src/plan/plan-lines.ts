// The words the plan's domain lines share (definition-changes.ts and the files it calls).
import type { EffectiveCluster } from '../model/effective';
import type { ChangeSubjects, Impact, PlanChange } from './plan';

/** The plan's lines of one change; `add` writes a line of this ClusterSet. */
export interface Lines {
  readonly out: PlanChange[];
  readonly add: (impact: Impact, text: string, details?: readonly string[], about?: ChangeSubjects) => void;
}

/** A revision's clusters by ID. */
export type Clusters = ReadonlyMap<string, EffectiveCluster>;

/** Up to five IDs, then how many more. */
export const list = (ids: readonly string[]) => (ids.length <= 5 ? ids.join(', ') : `${ids.slice(0, 5).join(', ')} and ${ids.length - 5} more`);
export const clusterCount = (ids: readonly string[]) => `${ids.length} cluster${ids.length === 1 ? '' : 's'} (${list(ids)})`;
