import type { KubeObject } from '../../kube/kube-object';

export interface TierProps {
  readonly name: string;
  /** 0-255; lower is evaluated first */
  readonly priority: number;
  readonly description?: string;
}

/** An Antrea policy Tier; a replicated policy is only created in members that have its tier. */
export const tier = (props: TierProps): KubeObject => ({
  apiVersion: 'crd.antrea.io/v1beta1',
  kind: 'Tier',
  metadata: { name: props.name },
  spec: { priority: props.priority, ...(props.description !== undefined ? { description: props.description } : {}) },
});
