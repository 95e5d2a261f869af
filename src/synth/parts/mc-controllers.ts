import { leaderMcControllerObjects, memberMcControllerObjects, type ImageOptions } from '../../antrea/workloads';
import { addObjects } from './apply-objects';
import type { BundlePart } from './context';

/** The leader and/or member antrea-mc-controller, by role; a dual-role cluster runs both. */
export const mcControllers: BundlePart = (chart, { definition, cluster, release }) => {
  const { antrea, leader } = definition.spec;
  const image: ImageOptions = { release, imageRegistry: antrea.imageRegistry };
  const net = cluster.network;
  if (cluster.isLeader) {
    addObjects(
      chart,
      leaderMcControllerObjects({
        ...image,
        namespace: leader.namespace,
        enableStretchedNetworkPolicy: net.stretchedNetworkPolicy,
        // every member has its own credential (member-credentials), at every release
        sharedMemberAccount: false,
      }),
    );
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
