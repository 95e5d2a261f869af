import type { KubeObject } from '../kube-object';

export interface GatewayNodeProps {
  /** an existing Node of the member */
  readonly node: string;
  /** optional tunnel IP overriding the one chosen by gatewayIPPrecedence */
  readonly ip?: string;
}

export const GATEWAY_ANNOTATION = 'multicluster.antrea.io/gateway';
export const GATEWAY_IP_ANNOTATION = 'multicluster.antrea.io/gateway-ip';

/**
 * A Gateway candidate: only annotations of a Node the cluster already has. The delivery
 * annotations (synth/delivery/prune-guards.ts) apply it server-side, so the engines own just
 * these keys, and never prune or delete it: deleting a Node object removes it from the cluster.
 */
export const gatewayNode = (props: GatewayNodeProps): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Node',
  metadata: {
    name: props.node,
    annotations: {
      [GATEWAY_ANNOTATION]: 'true',
      ...(props.ip !== undefined ? { [GATEWAY_IP_ANNOTATION]: props.ip } : {}),
    },
  },
});
