import { CLOUDS } from './clouds';
import { antreaAgentConf } from './core-config';
import { imageRepository } from './images';
import type { AntreaOptions } from './options';

/** The chart's version for a release: the release without its `v`. */
export const helmChartVersion = (version: string): string => version.replace(/^v/, '');

/** The `multicluster.*` keys the chart feeds to both config files (the WireGuard port keeps its default). */
const MULTICLUSTER_KEYS = ['enableGateway', 'namespace', 'enableStretchedNetworkPolicy', 'enablePodToPodConnectivity', 'trafficEncryptionMode'] as const;

/**
 * Values for Antrea's official Helm chart (`build/charts/antrea` upstream) that give a cluster the
 * settings a full bundle writes into `antrea-agent.conf`: they are read from that same conf
 * (core-config.ts), so the two installs cannot drift. The chart feeds one `featureGates` map and
 * one `multicluster` map to both config files (its `conf/*.conf` templates), so each setting
 * appears once; the images and a cloud variant's settings come from the same facts as the
 * workloads. Used where a cluster's Antrea is installed by someone else (`install:
 * multiclusterOnly`). `agentConfig` and `controllerConfig` are not translated: they are conf
 * keys, and the chart names most of them differently.
 */
export function antreaHelmValues(opts: AntreaOptions): Record<string, unknown> {
  const cloud = opts.cloud ? CLOUDS[opts.cloud] : undefined;
  const conf = antreaAgentConf({ ...opts, agentConfig: {} });
  const multicluster = conf.multicluster as Record<string, unknown>;
  const agent: Record<string, unknown> = {
    ...(cloud?.agentDnsPolicy && { dnsPolicy: cloud.agentDnsPolicy }),
    ...(cloud?.agentEnv && { antreaAgent: { extraEnv: Object.fromEntries(cloud.agentEnv.map((e) => [e.name, e.value])) } }),
  };
  return {
    agentImage: { repository: imageRepository('agent', opts), tag: opts.release.version },
    controllerImage: { repository: imageRepository('controller', opts), tag: opts.release.version },
    trafficEncapMode: conf.trafficEncapMode,
    tunnelType: conf.tunnelType,
    tunnelPort: conf.tunnelPort,
    ...(Object.keys(agent).length > 0 && { agent }),
    ...(cloud?.cniBinDir && { cni: { hostBinPath: cloud.cniBinDir } }),
    ...(opts.multicluster?.enabled && {
      featureGates: { Multicluster: true },
      multicluster: Object.fromEntries(MULTICLUSTER_KEYS.map((k) => [k, multicluster[k]])),
    }),
  };
}
