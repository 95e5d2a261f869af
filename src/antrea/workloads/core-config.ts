import type { IConfigMap } from 'kubernetes-models/v1/ConfigMap';
import { renderJsonConfig, renderYamlConfig } from './config-file';
import { mergeLayers } from './deep-merge';
import type { KubeObject } from '../../kube/kube-object';
import { ANTREA_CONFIG_MAP, ANTREA_NAMESPACE, APP_LABELS } from './constants';
import type { AntreaRelease } from '../release';
import type { AntreaOptions } from './options';

type Conf = Record<string, unknown>;

/** `antrea-agent.conf` as the chart writes it for a release. */
// null marks a section the chart leaves empty (Go reads it as unset); kept so the parsed file equals upstream's
export function agentConfDefaults(release: AntreaRelease): Conf {
  return {
    featureGates: null,
    ovsBridge: 'br-int',
    hostGateway: 'antrea-gw0',
    trafficEncapMode: 'encap',
    podCIDRs: '',
    noSNAT: false,
    snatFullyRandomPorts: false,
    tunnelType: 'geneve',
    tunnelPort: 0,
    tunnelCsum: false,
    trafficEncryptionMode: 'none',
    enableBridgingMode: false,
    disableTXChecksumOffload: false,
    defaultMTU: 0,
    packetInRate: 5000,
    wireGuard: { port: 51820 },
    egress: {
      exceptCIDRs: null,
      maxEgressIPsPerNode: 255,
      snatFullyRandomPorts: null,
      uniqueMACForSubInterfaces: true,
    },
    serviceCIDR: '',
    serviceCIDRv6: '',
    apiPort: 10350,
    clusterPort: 10351,
    ...(release.facts.memberlistKeys && { memberlist: { gossipVerifyOutgoing: true, gossipVerifyIncoming: true } }),
    enablePrometheusMetrics: true,
    flowExporter: {
      enable: false,
      flowCollectorAddr: 'flow-aggregator/flow-aggregator:14739:grpc',
      flowPollInterval: '5s',
      activeFlowExportTimeout: '5s',
      idleFlowExportTimeout: '15s',
      protocolFilter: null,
    },
    nodePortLocal: { enable: false, portRange: '61000-62000' },
    kubeAPIServerOverride: '',
    dnsServerOverride: '',
    fqdnCacheMinTTL: 0,
    tlsCipherSuites: '',
    tlsMinVersion: '',
    transportInterface: '',
    multicast: {
      enable: false,
      multicastInterfaces: null,
      igmpQueryVersions: [1, 2, 3],
      igmpQueryInterval: '125s',
    },
    transportInterfaceCIDRs: null,
    antreaProxy: {
      enable: true,
      proxyAll: false,
      nodePortAddresses: null,
      skipServices: null,
      proxyLoadBalancerIPs: true,
      serviceProxyName: '',
      defaultLoadBalancerMode: 'nat',
      disableServiceHealthCheckServer: false,
      serviceHealthCheckServerBindAddress: '',
    },
    ipsec: { authenticationMode: 'psk' },
    multicluster: {
      enableGateway: false,
      namespace: '',
      enableStretchedNetworkPolicy: false,
      enablePodToPodConnectivity: false,
      trafficEncryptionMode: 'none',
      wireGuard: { port: 51821 },
    },
    auditLogging: { maxSize: 500, maxBackups: 3, maxAge: 28, compress: true },
    secondaryNetwork: { ovsBridges: null },
    hostNetworkAcceleration: { enable: true },
    hostNetworkMode: 'iptables',
  };
}

export function controllerConfDefaults(): Conf {
  return {
    featureGates: null,
    apiPort: 10349,
    enablePrometheusMetrics: true,
    selfSignedCert: true,
    tlsCipherSuites: '',
    tlsMinVersion: '',
    clientCAFile: '',
    kubeAPIServerOverride: '',
    nodeIPAM: {
      enableNodeIPAM: false,
      clusterCIDRs: null,
      serviceCIDR: '',
      serviceCIDRv6: '',
      nodeCIDRMaskSizeIPv4: 24,
      nodeCIDRMaskSizeIPv6: 64,
    },
    ipsecCSRSigner: { autoApprove: true, selfSignedCA: true },
    multicluster: { enableStretchedNetworkPolicy: false },
  };
}

/** host-local IPAM plus the portmap and bandwidth chained plugins */
function cniConflist(): Conf {
  return {
    cniVersion: '0.3.0',
    name: 'antrea',
    plugins: [
      { type: 'antrea', ipam: { type: 'host-local' } },
      { type: 'portmap', capabilities: { portMappings: true } },
      { type: 'bandwidth', capabilities: { bandwidth: true } },
    ],
  };
}

/** `antrea-agent.conf` as data: chart defaults, then the options, then `agentConfig`. */
export function antreaAgentConf(opts: AntreaOptions): Conf {
  const mc = opts.multicluster?.enabled ? opts.multicluster : undefined;
  // undefined leaves the default in place (deepMerge skips it)
  const fromOptions = {
    trafficEncapMode: opts.trafficEncapMode,
    tunnelType: opts.tunnelType,
    tunnelPort: opts.tunnelPort,
    // the agent ignores multicluster.* while the gate is off, so they are only written with it
    ...(mc && {
      featureGates: { Multicluster: true },
      multicluster: {
        enableGateway: mc.enableGateway,
        namespace: mc.namespace,
        enableStretchedNetworkPolicy: mc.enableStretchedNetworkPolicy,
        enablePodToPodConnectivity: mc.enablePodToPodConnectivity,
        trafficEncryptionMode: mc.trafficEncryptionMode,
      },
    }),
  };
  return mergeLayers(agentConfDefaults(opts.release), fromOptions, opts.agentConfig);
}

/** `antrea-controller.conf` as data: chart defaults, then the options, then `controllerConfig`. */
export function antreaControllerConf(opts: AntreaOptions): Conf {
  const mc = opts.multicluster?.enabled ? opts.multicluster : undefined;
  const fromOptions = mc && {
    featureGates: { Multicluster: true },
    multicluster: { enableStretchedNetworkPolicy: mc.enableStretchedNetworkPolicy },
  };
  return mergeLayers(controllerConfDefaults(), fromOptions, opts.controllerConfig);
}

/** networkPolicyOnly as the agent will run it (after `agentConfig`): Antrea chains after the primary CNI */
export const isNetworkPolicyOnly = (opts: AntreaOptions): boolean => antreaAgentConf(opts).trafficEncapMode === 'networkPolicyOnly';

export const antreaCniConflist = (): Conf => cniConflist();

/** The `antrea-config` ConfigMap with the three files rendered from data. */
export function antreaConfigMap(opts: AntreaOptions): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: ANTREA_CONFIG_MAP, namespace: ANTREA_NAMESPACE, labels: { ...APP_LABELS } },
    data: {
      'antrea-agent.conf': renderYamlConfig(antreaAgentConf(opts)),
      'antrea-cni.conflist': renderJsonConfig(cniConflist()),
      'antrea-controller.conf': renderYamlConfig(antreaControllerConf(opts)),
    },
  } satisfies IConfigMap;
}
