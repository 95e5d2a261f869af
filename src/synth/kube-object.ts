import type { KubeObject } from '../antrea/workloads/kube-object';

// one object shape for the whole compiler: Antrea's workload model defines it, synth and emit reuse it
export type { KubeObject } from '../antrea/workloads/kube-object';
export { objectRef } from '../antrea/workloads/kube-object';

/** kind/namespace/name: unique within one bundle (output-collision). */
export const objectKey = (o: KubeObject): string => `${o.kind}/${o.metadata.namespace ?? ''}/${o.metadata.name}`;
