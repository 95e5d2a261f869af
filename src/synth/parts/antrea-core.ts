import { antreaCoreObjects, antreaHelmValues, nodeInitDaemonSet, type AntreaOptions } from '../../antrea/workloads';
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

/** The file beside a bundle's layers that holds its chart values (no kustomization lists it). */
export const HELM_VALUES_FILE = 'antrea-helm-values.yaml';

/**
 * Values for Antrea's Helm chart where a cluster's Antrea is installed elsewhere; none for a
 * dedicated leader, whose mc-controller needs no Antrea at all (its RBAC names no crd.antrea.io
 * resource in upstream's leader manifests).
 */
export function antreaChartValues(ctx: BundleContext): Record<string, unknown> | undefined {
  if (ctx.cluster.cluster.install !== 'multiclusterOnly' || !ctx.cluster.isMember) return undefined;
  return antreaHelmValues(antreaOptions(ctx));
}

/**
 * Antrea core in kube-system: agent, controller, RBAC, config, APIServices, webhooks, and on a
 * cloud its node-init (upstream ships it as a separate file to apply first; layers.ts orders it).
 */
export const antreaCore: BundlePart = (ctx) => {
  const { cloud, install } = ctx.cluster.cluster;
  // Antrea is installed elsewhere: the bundle carries chart values instead (synth-clusterset.ts)
  if (install === 'multiclusterOnly') return [];
  return [...(cloud ? [nodeInitDaemonSet(cloud)] : []), ...antreaCoreObjects(antreaOptions(ctx))];
};
