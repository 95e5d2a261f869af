import { parseIP } from './ip-block';
/**
 * The endpoint words of `clusterset connections` and of the plan's Connections section:
 * a Pod `CLUSTER/NAMESPACE/POD`, a local Service `CLUSTER/NAMESPACE/service/NAME`, a
 * multi-cluster Service through one exporting cluster's backends `mcs/NAMESPACE/NAME@EXPORTER`,
 * an address `ip/A.B.C.D`.
 */
export type Endpoint =
  | { readonly kind: 'pod'; readonly cluster: string; readonly namespace: string; readonly name: string }
  | { readonly kind: 'service'; readonly cluster: string; readonly namespace: string; readonly name: string }
  | { readonly kind: 'mcs'; readonly namespace: string; readonly name: string; readonly exporter: string }
  | { readonly kind: 'ip'; readonly ip: string };

export interface PortWord {
  readonly protocol: string;
  readonly port: number;
}

const NAME = /^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/;

/** An endpoint from its words; a string saying what is wrong otherwise. */
export function parseEndpoint(s: string): Endpoint | string {
  const parts = s.split('/');
  if (parts[0] === 'ip' && parts.length === 2) {
    return parseIP(parts[1]!) ? { kind: 'ip', ip: parts[1]! } : `"${s}": ip/ takes an IPv4 or IPv6 address, e.g. ip/10.0.0.1 or ip/fd00::1`;
  }
  if (parts[0] === 'mcs' && parts.length === 3 && parts[2]!.includes('@')) {
    const [name, exporter] = parts[2]!.split('@') as [string, string];
    if ([parts[1]!, name, exporter].every((p) => NAME.test(p))) return { kind: 'mcs', namespace: parts[1]!, name, exporter };
  }
  if (parts.length === 4 && parts[2] === 'service' && [parts[0]!, parts[1]!, parts[3]!].every((p) => NAME.test(p)))
    return { kind: 'service', cluster: parts[0]!, namespace: parts[1]!, name: parts[3]! };
  if (parts.length === 3 && parts.every((p) => NAME.test(p))) return { kind: 'pod', cluster: parts[0]!, namespace: parts[1]!, name: parts[2]! };
  return `"${s}" is not an endpoint: write CLUSTER/NAMESPACE/POD, CLUSTER/NAMESPACE/service/NAME, mcs/NAMESPACE/NAME@EXPORTER or ip/A.B.C.D`;
}

export function endpointWords(e: Endpoint): string {
  switch (e.kind) {
    case 'pod':
      return `${e.cluster}/${e.namespace}/${e.name}`;
    case 'service':
      return `${e.cluster}/${e.namespace}/service/${e.name}`;
    case 'mcs':
      return `mcs/${e.namespace}/${e.name}@${e.exporter}`;
    case 'ip':
      return `ip/${e.ip}`;
  }
}

export function parsePort(s: string): PortWord | string {
  const m = /^(TCP|UDP|SCTP)\/(\d{1,5})$/.exec(s);
  const port = m ? Number(m[2]) : 0;
  if (!m || port < 1 || port > 65535) return `"${s}" is not a port: write PROTOCOL/PORT, e.g. TCP/8080 (TCP, UDP or SCTP, 1-65535)`;
  return { protocol: m[1]!, port };
}

export const portWords = (p: PortWord): string => `${p.protocol}/${p.port}`;

/** The cluster an endpoint lives in (the exporter for a multi-cluster Service); undefined for an address. */
export const endpointCluster = (e: Endpoint): string | undefined => (e.kind === 'ip' ? undefined : e.kind === 'mcs' ? e.exporter : e.cluster);
