import { CLOUDS } from './clouds';
import { DEFAULT_IMAGE_REGISTRY } from './images';
import type { AntreaOptions } from './options';

/**
 * Values for Antrea's official Helm chart (`build/charts/antrea` upstream) that give a cluster the
 * same agent and controller settings a full bundle writes into `antrea-agent.conf` and
 * `antrea-controller.conf` (core-config.ts): the mode, the tunnel, the Multicluster gate and its
 * `multicluster.*` keys, the images, and what a cloud variant changes. Used where a cluster's
 * Antrea is installed by someone else (`install: multiclusterOnly`). The chart feeds one
 * `featureGates` map and one `multicluster` map to both config files (its `conf/*.conf`
 * templates), so each setting appears once. `agentConfig` and `controllerConfig` are not
 * translated: they are conf keys, and the chart names most of them differently.
 */
export function antreaHelmValues(opts: AntreaOptions): Record<string, unknown> {
  const cloud = opts.cloud ? CLOUDS[opts.cloud] : undefined;
  const registry = (opts.imageRegistry ?? DEFAULT_IMAGE_REGISTRY).replace(/\/+$/, '');
  const { release } = opts;
  const mc = opts.multicluster?.enabled ? opts.multicluster : undefined;
  const agent: Record<string, unknown> = {
    ...(cloud?.agentDnsPolicy && { dnsPolicy: cloud.agentDnsPolicy }),
    ...(cloud?.agentEnv && { antreaAgent: { extraEnv: Object.fromEntries(cloud.agentEnv.map((e) => [e.name, e.value])) } }),
  };
  return {
    agentImage: { repository: `${registry}/${release.images.agent}`, tag: release.version },
    controllerImage: { repository: `${registry}/${release.images.controller}`, tag: release.version },
    trafficEncapMode: opts.trafficEncapMode ?? cloud?.trafficEncapMode ?? 'encap',
    tunnelType: opts.tunnelType ?? 'geneve',
    tunnelPort: opts.tunnelPort ?? 0,
    ...(Object.keys(agent).length > 0 && { agent }),
    ...(cloud && cloud.cniBinDir !== '/opt/cni/bin' && { cni: { hostBinPath: cloud.cniBinDir } }),
    ...(mc && {
      featureGates: { Multicluster: true },
      multicluster: {
        enableGateway: mc.enableGateway ?? false,
        namespace: mc.namespace ?? '',
        enableStretchedNetworkPolicy: mc.enableStretchedNetworkPolicy ?? false,
        enablePodToPodConnectivity: mc.enablePodToPodConnectivity ?? false,
        trafficEncryptionMode: mc.trafficEncryptionMode ?? 'none',
      },
    }),
  };
}
