import { memorySink, type InMemory } from '../pipeline/memory-sink';
import type { Sink } from '../pipeline/pipeline';
import { OtherRevision } from './changed-outputs';

/**
 * The sink of `plan`: the pipeline over two revisions (base, head), each built in memory, checked
 * as synth checks it, with only what differs from the other revision (changed-outputs.ts).
 */
export function planSink(): Sink<InMemory[]> {
  const memory = memorySink();
  let others: OtherRevision[] = [];
  return {
    ...memory,
    begin: (revisions, sets, diagnostics) => {
      others = [new OtherRevision(sets[1] ?? []), new OtherRevision(sets[0] ?? [])];
      return memory.begin?.(revisions, sets, diagnostics);
    },
    keepBundle: (r, set, source) => others[r]!.sameBundle(set.name, source),
    keepEngines: (r, set, clusterID, engines) => others[r]!.sameEngines(set.name, clusterID, engines.hash),
  };
}
