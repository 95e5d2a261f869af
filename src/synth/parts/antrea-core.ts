import { antreaCoreObjects, nodeInitDaemonSet, type AntreaOptions } from '../../antrea/workloads';
import type { BundleContext, BundlePart } from './context';

/** Antrea agent and controller options from a cluster's effective settings. */
export function antreaOptions({ definition, cluster, release }: BundleContext): AntreaOptions {
  const { antrea } = definition.spec;
  const net = cluster.network;
  return {
    release,
    imageRegistry: antrea.imageRegistry,
    trafficEncapMode: net.trafficEncapMode,
    tunnelType: net.tunnelType,
    tunnelPort: net.tunnelPort,
    ...(cluster.cluster.cloud ? { cloud: cluster.cluster.cloud } : {}),
    // a dedicated leader routes no cross-cluster traffic: its agents keep Multi-cluster off
    multicluster: cluster.isMember
      ? {
          enabled: true,
          enableGateway: true,
          namespace: cluster.cluster.namespace,
          enablePodToPodConnectivity: net.podToPodConnectivity,
          enableStretchedNetworkPolicy: net.stretchedNetworkPolicy,
          trafficEncryptionMode: net.encryption,
        }
      : { enabled: false },
    agentConfig: antrea.agentConfig,
    controllerConfig: antrea.controllerConfig,
  };
}

/**
 * Antrea core in kube-system: agent, controller, RBAC, config, APIServices, webhooks, and on a
 * cloud its node-init (upstream ships it as a separate file to apply first; layers.ts orders it).
 */
export const antreaCore: BundlePart = (ctx) => {
  const { cloud } = ctx.cluster.cluster;
  return [...(cloud ? [nodeInitDaemonSet(cloud)] : []), ...antreaCoreObjects(antreaOptions(ctx))];
};
