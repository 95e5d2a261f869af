import { ANTREA_VERSION, leaderMcControllerObjects, memberMcControllerObjects, type ImageOptions } from '../../antrea/v2.7.0/workloads';
import { addObjects } from './apply-objects';
import type { BundlePart } from './context';

/** The leader and/or member antrea-mc-controller, by role; a dual-role cluster runs both. */
export const mcControllers: BundlePart = (chart, { definition, cluster }) => {
  const { antrea, leader } = definition.spec;
  const image: ImageOptions = { version: ANTREA_VERSION, imageRegistry: antrea.imageRegistry };
  const net = cluster.network;
  if (cluster.isLeader) {
    addObjects(chart, leaderMcControllerObjects({ ...image, namespace: leader.namespace, enableStretchedNetworkPolicy: net.stretchedNetworkPolicy }));
  }
  if (cluster.isMember) {
    addObjects(
      chart,
      memberMcControllerObjects({
        ...image,
        namespace: cluster.cluster.namespace,
        serviceCIDR: cluster.cluster.serviceCIDR ?? '',
        ...(cluster.cluster.podCIDRs.length ? { podCIDRs: cluster.cluster.podCIDRs } : {}),
        gatewayIPPrecedence: net.gatewayIPPrecedence,
        endpointIPType: net.endpointIPType,
        enableStretchedNetworkPolicy: net.stretchedNetworkPolicy,
      }),
    );
  }
};
