import { GatewayNode } from '../constructs/gateway-node';
import type { BundlePart } from './context';

/** On a member, the Gateway candidate annotations of its Nodes. */
export const gatewayNodes: BundlePart = (chart, { cluster }) => {
  if (!cluster.isMember) return;
  for (const gateway of cluster.cluster.gateways) {
    new GatewayNode(chart, `gateway-node-${gateway.node}`, { node: gateway.node, ip: gateway.ip });
  }
};
