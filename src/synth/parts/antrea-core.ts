import { antreaCoreObjects, antreaHelmValues, nodeInitDaemonSet, type AntreaOptions } from '../../antrea/workloads';
import type { KubeObject } from '../../kube/kube-object';
import { sharedPart, type BundleContext } from './context';

/** Antrea agent and controller options from a cluster's effective settings. */
export function antreaOptions({ definition, cluster, release }: Omit<BundleContext, 'peers'>): AntreaOptions {
  const { antrea } = definition.spec;
  const net = cluster.network;
  return {
    release,
    imageRegistry: antrea.imageRegistry,
    ...(antrea.imageDigests && { imageDigests: antrea.imageDigests }),
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
export function antreaChartValues(ctx: Omit<BundleContext, 'peers'>): Record<string, unknown> | undefined {
  if (ctx.cluster.cluster.install !== 'multiclusterOnly' || !ctx.cluster.isMember) return undefined;
  return antreaHelmValues(antreaOptions(ctx));
}

/**
 * What Antrea core is built from: a cluster's Antrea options, cloud and installation. Clusters
 * with equal inputs get equal objects, so a fleet renders them once (synth-clusterset.ts); the
 * objects are built from these inputs alone, never from the rest of the context.
 */
export interface AntreaCoreInputs {
  readonly install: BundleContext['cluster']['cluster']['install'];
  readonly options: AntreaOptions;
}

const antreaCoreInputs = (ctx: BundleContext): AntreaCoreInputs => ({ install: ctx.cluster.cluster.install, options: antreaOptions(ctx) });

/** A key equal for equal inputs (the release by its version). */
export const antreaCoreKey = ({ install, options }: AntreaCoreInputs): string =>
  JSON.stringify([options.release.version, install, { ...options, release: undefined }]);

/**
 * Antrea core in kube-system: agent, controller, RBAC, config, APIServices, webhooks, and on a
 * cloud its node-init (upstream ships it as a separate file to apply first; layers.ts orders it).
 */
function antreaCoreFrom({ install, options }: AntreaCoreInputs): KubeObject[] {
  // Antrea is installed elsewhere: the bundle carries chart values instead (synth-clusterset.ts)
  if (install === 'multiclusterOnly') return [];
  return [...(options.cloud ? [nodeInitDaemonSet(options.cloud)] : []), ...antreaCoreObjects(options)];
}

export const antreaCore = sharedPart('antrea-core', antreaCoreInputs, antreaCoreKey, antreaCoreFrom);
