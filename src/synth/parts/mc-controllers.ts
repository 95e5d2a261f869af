import { leaderMcControllerObjects, memberMcAccessObjects, memberMcControllerWorkload, type ImageOptions } from '../../antrea/workloads';
import type { KubeObject } from '../../kube/kube-object';
import { sharedPart, type BundlePart } from './context';

/** The leader and/or member antrea-mc-controller, by role; a dual-role cluster runs both (a member's access objects: `memberMcAccess`). */
export const mcControllers: BundlePart = ({ definition, cluster, release }) => {
  const { antrea, leader } = definition.spec;
  const image: ImageOptions = { release, imageRegistry: antrea.imageRegistry, ...(antrea.imageDigests && { imageDigests: antrea.imageDigests }) };
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
      ...memberMcControllerWorkload({
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

/** A member mc-controller's ServiceAccount, RBAC, webhook Service and webhooks: the same for every member in one Namespace. */
export const memberMcAccess = sharedPart(
  'member-mc-access',
  ({ cluster }) => (cluster.isMember ? cluster.cluster.namespace : undefined),
  (namespace) => JSON.stringify(namespace ?? null),
  (namespace) => (namespace === undefined ? [] : memberMcAccessObjects(namespace)),
);
