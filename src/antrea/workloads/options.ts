import type { CloudProvider, TrafficEncapMode } from './clouds';
import type { ImageOptions } from './images';

export type { TrafficEncapMode } from './clouds';
export type TunnelType = 'geneve' | 'vxlan' | 'gre' | 'stt';
export type McTrafficEncryptionMode = 'none' | 'wireGuard';
export type GatewayIPPrecedence = 'private' | 'public' | 'internal' | 'external';
export type EndpointIPType = 'ClusterIP' | 'PodIP';

/** The agent and controller side of Antrea Multi-cluster (conf keys `featureGates.Multicluster`, `multicluster.*`). */
export interface MulticlusterOptions {
  /** sets the `Multicluster` feature gate in agent and controller; the other fields only apply when true */
  readonly enabled: boolean;
  /** @default false */
  readonly enableGateway?: boolean;
  /** the member mc-controller Namespace; @default '' (the agent's own Namespace) */
  readonly namespace?: string;
  /** @default false */
  readonly enablePodToPodConnectivity?: boolean;
  /** agent and controller; needs the Gateway in the agent; @default false */
  readonly enableStretchedNetworkPolicy?: boolean;
  /** cross-cluster tunnel encryption between Gateways; @default 'none' */
  readonly trafficEncryptionMode?: McTrafficEncryptionMode;
}

/**
 * Everything that varies between clusters in Antrea core (agent, controller, their config).
 * The synth stage fills it from a cluster's effective settings; absent fields keep the
 * upstream chart defaults, so `{ release }` alone reproduces `antrea.yml`.
 */
export interface AntreaOptions extends ImageOptions {
  /** @default 'encap' */
  readonly trafficEncapMode?: TrafficEncapMode;
  /** @default 'geneve' */
  readonly tunnelType?: TunnelType;
  /** 0 means the protocol's standard port; @default 0 */
  readonly tunnelPort?: number;
  /** with the cloud's mode (clouds.ts), `EKS` reproduces `antrea-eks.yml`, `AKS` and `GKE` theirs; @default none */
  readonly cloud?: CloudProvider;
  /** @default multi-cluster off */
  readonly multicluster?: MulticlusterOptions;
  /** deep-merged last into `antrea-agent.conf` */
  readonly agentConfig?: Readonly<Record<string, unknown>>;
  /** deep-merged last into `antrea-controller.conf` */
  readonly controllerConfig?: Readonly<Record<string, unknown>>;
  /**
   * With in-cluster IPsec, the object that provides the `antrea-ipsec` Secret in the bundle
   * (e.g. an ExternalSecret); its checksum becomes `checksum/ipsec-secret`, so agents restart
   * when the PSK source changes. @default the Secret reference alone
   */
  readonly ipsecSecretSource?: unknown;
}

/** Settings of `controller_manager_config.yaml` that a definition controls. */
export interface McControllerConfigOptions {
  /** @default '' (discovered by the member controller) */
  readonly serviceCIDR?: string;
  /** @default [''] (none: Pod-to-Pod disabled) */
  readonly podCIDRs?: readonly string[];
  /** @default 'private' */
  readonly gatewayIPPrecedence?: GatewayIPPrecedence;
  /** @default 'ClusterIP' */
  readonly endpointIPType?: EndpointIPType;
  /** @default false */
  readonly enableStretchedNetworkPolicy?: boolean;
}

/** The leader mc-controller: only the stretched-policy switch is read by a leader. */
export interface LeaderMcOptions extends ImageOptions {
  /** leader Namespace (the common area); @default 'antrea-multicluster' */
  readonly namespace?: string;
  /** @default false */
  readonly enableStretchedNetworkPolicy?: boolean;
  /**
   * the shared `antrea-mc-member-access-sa`, its member RoleBinding and token, as upstream's
   * leader manifest ships them before v2.7; bundles never do (one credential per member).
   * @default true before v2.7, false from v2.7 (where upstream dropped it)
   */
  readonly sharedMemberAccount?: boolean;
}

export interface MemberMcOptions extends ImageOptions, McControllerConfigOptions {
  /** member controller Namespace; @default 'kube-system' */
  readonly namespace?: string;
}
