import { activeGateways, retiredGateways } from '../../model/gateways';
import { gatewayNode, retiredGatewayNode } from '../objects/gateway-node';
import { gatewayNodeGuard } from '../objects/gateway-node-guard';
import type { BundlePart } from './context';

/** On a member, the Gateway candidate annotations of its Nodes, and the policy that keeps them from creating a Node. */
export const gatewayNodes: BundlePart = ({ cluster }) => {
  const { gateways } = cluster.cluster;
  if (!cluster.isMember || gateways.length === 0) return [];
  return [
    ...gatewayNodeGuard(),
    ...activeGateways(cluster.cluster).map((gateway) => gatewayNode({ node: gateway.node, ip: gateway.ip })),
    ...retiredGateways(cluster.cluster).map((gateway) => retiredGatewayNode(gateway.node)),
  ];
};
