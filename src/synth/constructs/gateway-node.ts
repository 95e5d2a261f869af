import { ApiObject } from 'cdk8s';
import type { Construct } from 'constructs';
import { PARTIAL_GUARD_ANNOTATIONS } from '../guards';

export interface GatewayNodeProps {
  /** an existing Node of the member */
  readonly node: string;
  /** optional tunnel IP overriding the one chosen by gatewayIPPrecedence */
  readonly ip?: string;
}

export const GATEWAY_ANNOTATION = 'multicluster.antrea.io/gateway';
export const GATEWAY_IP_ANNOTATION = 'multicluster.antrea.io/gateway-ip';

/**
 * A Gateway candidate: only annotations of a Node the cluster already has. Applied with
 * server-side apply so the engines own just these keys; never pruned or deleted, since
 * deleting a Node object removes the Node from the cluster.
 */
export class GatewayNode extends ApiObject {
  constructor(scope: Construct, id: string, props: GatewayNodeProps) {
    super(scope, id, {
      apiVersion: 'v1',
      kind: 'Node',
      metadata: {
        name: props.node,
        annotations: {
          ...PARTIAL_GUARD_ANNOTATIONS,
          [GATEWAY_ANNOTATION]: 'true',
          ...(props.ip !== undefined ? { [GATEWAY_IP_ANNOTATION]: props.ip } : {}),
        },
      },
    });
  }
}
