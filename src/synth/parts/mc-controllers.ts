import { leaderMcControllerObjects, memberMcControllerObjects, type ImageOptions } from '../../antrea/workloads';
import type { KubeObject } from '../kube-object';
import type { BundlePart } from './context';

/** The leader and/or member antrea-mc-controller, by role; a dual-role cluster runs both. */
export const mcControllers: BundlePart = ({ definition, cluster, release }) => {
  const { antrea, leader } = definition.spec;
  const image: ImageOptions = { release, imageRegistry: antrea.imageRegistry };
  const net = cluster.network;
  const out: KubeObject[] = [];
  if (cluster.isLeader) {
    out.push(
      ...leaderMcControllerObjects({
        ...image,
        namespace: leader.namespace,
        enableStretchedNetworkPolicy: net.stretchedNetworkPolicy,
        // every member has its own credential (member-credentials), at every release
        sharedMemberAccount: false,
      }),
    );
  }
  if (cluster.isMember) {
    out.push(
      ...memberMcControllerObjects({
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
  return out;
};
