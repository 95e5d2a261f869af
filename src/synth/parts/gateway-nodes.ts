import { gatewayNode } from '../constructs/gateway-node';
import type { BundlePart } from './context';

/** On a member, the Gateway candidate annotations of its Nodes. */
export const gatewayNodes: BundlePart = ({ cluster }) =>
  cluster.isMember ? cluster.cluster.gateways.map((gateway) => gatewayNode({ node: gateway.node, ip: gateway.ip })) : [];
