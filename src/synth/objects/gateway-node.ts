import type { KubeObject } from '../../kube/kube-object';

export interface GatewayNodeProps {
  /** an existing Node of the member */
  readonly node: string;
  /** optional tunnel IP overriding the one chosen by gatewayIPPrecedence */
  readonly ip?: string;
}

export const GATEWAY_ANNOTATION = 'multicluster.antrea.io/gateway';
export const GATEWAY_IP_ANNOTATION = 'multicluster.antrea.io/gateway-ip';
/** Ours, on a retired Gateway's Node: something to apply, and what the admission policy refuses to create. */
export const RETIRED_GATEWAY_ANNOTATION = 'antrea-clusterset/retired-gateway';

/**
 * A Gateway candidate: only annotations of a Node the cluster already has. The delivery
 * annotations (delivery/prune-guards.ts) apply it server-side, so the engines own just
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

/**
 * A Node that was a Gateway: the same partial object without the Gateway annotations. Applied
 * server-side by the same field manager, it releases the annotations that manager owned, so the
 * API server removes them (unless someone else also set them, e.g. with kubectl annotate); the Node
 * itself stays. The member controller then drops the Node from its candidates and, if it was the
 * active Gateway, elects another (member/node_controller.go, NodeReconciler.Reconcile,
 * recreateActiveGateway).
 */
export const retiredGatewayNode = (node: string): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Node',
  metadata: { name: node, annotations: { [RETIRED_GATEWAY_ANNOTATION]: 'true' } },
});
