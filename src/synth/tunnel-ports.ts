import type { Network } from '../model/clusterset';

/** A firewall opening: an IP protocol and, for UDP/TCP, a destination port. */
export interface Opening {
  readonly protocol: 'UDP' | 'TCP' | 'GRE';
  /** undefined for GRE (IP protocol 47), which has no ports */
  readonly port?: number;
  /** what uses it, for people reading a firewall request */
  readonly purpose: string;
}

const STANDARD: Record<Network['tunnelType'], { protocol: Opening['protocol']; port?: number; name: string }> = {
  geneve: { protocol: 'UDP', port: 6081, name: 'Geneve' },
  vxlan: { protocol: 'UDP', port: 4789, name: 'VXLAN' },
  stt: { protocol: 'TCP', port: 7471, name: 'STT' },
  gre: { protocol: 'GRE', name: 'GRE' },
};

/** Antrea's cross-cluster WireGuard port (multicluster.wireGuard.port, not exposed by the definition). */
export const MC_WIREGUARD_PORT = 51821;

/** The tunnel a cluster's Antrea agents listen on; tunnelPort 0 means the protocol's standard port, GRE has none. */
export function tunnelOpening(network: Pick<Network, 'tunnelType' | 'tunnelPort'>): Opening {
  const std = STANDARD[network.tunnelType];
  if (std.port === undefined) return { protocol: std.protocol, purpose: `${std.name} tunnel` };
  return { protocol: std.protocol, port: network.tunnelPort || std.port, purpose: `${std.name} tunnel` };
}

/**
 * What a Gateway must accept from remote Gateways: the tunnel, or with cross-cluster WireGuard
 * only WireGuard, since the tunnel then travels inside it (Antrea's multicluster WireGuard wraps
 * the Gateway-to-Gateway tunnel: pkg/agent/multicluster, the mc WireGuard client).
 */
export function gatewayOpenings(network: Pick<Network, 'tunnelType' | 'tunnelPort' | 'encryption'>): Opening[] {
  if (network.encryption === 'wireGuard') return [{ protocol: 'UDP', port: MC_WIREGUARD_PORT, purpose: 'WireGuard' }];
  return [tunnelOpening(network)];
}

/** The mc-controller's webhook server port: host network, so the API server calls each Node on it. */
export const MC_WEBHOOK_PORT = 9443;

/** `UDP 6081 (Geneve tunnel)`, `IP protocol 47 (GRE tunnel)`. */
export const formatOpening = (o: Opening): string => (o.protocol === 'GRE' ? `IP protocol 47 (${o.purpose})` : `${o.protocol} ${o.port!} (${o.purpose})`);
