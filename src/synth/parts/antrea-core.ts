import { ANTREA_VERSION, antreaCoreObjects } from '../../antrea/v2.7.0/workloads';
import type { AntreaOptions } from '../../antrea/v2.7.0/workloads/options';
import { addObjects } from './apply-objects';
import type { BundleContext, BundlePart } from './context';

/** Antrea agent and controller options from a cluster's effective settings. */
export function antreaOptions({ definition, cluster }: BundleContext): AntreaOptions {
  const { antrea } = definition.spec;
  const net = cluster.network;
  return {
    version: ANTREA_VERSION,
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

/** Antrea core in kube-system: agent, controller, RBAC, config, APIServices, webhooks. */
export const antreaCore: BundlePart = (chart, ctx) => {
  addObjects(chart, antreaCoreObjects(antreaOptions(ctx)));
};
