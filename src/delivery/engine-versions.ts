import type { KubernetesRange } from '../kube/kubernetes-version';

/** A minor version of a delivery engine we support, with the Kubernetes minors it states. */
export interface EngineVersion {
  readonly version: string;
  readonly kubernetes: KubernetesRange;
}
