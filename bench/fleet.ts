// The fleet generator of the benchmarks and the scale tests: a realistic ClusterSet of any size,
// a dedicated leader and members with Pod-to-Pod connectivity, one Gateway each, Services
// exported from some members, one replicated policy, delivered by Flux from the leader.
import { LATEST_RELEASE } from '../src/antrea/releases';
import type { ClusterSetInput } from '../src/model/clusterset';

const dotted = (n: number) => [24, 16, 8, 0].map((s) => (n >>> s) & 255).join('.');
const base = (text: string) => text.split('.').reduce((n, o) => n * 256 + Number(o), 0);

export interface FleetOptions {
  readonly name?: string;
  /** the Antrea release (default the newest supported) */
  readonly version?: string;
  /** a change to one member: its Gateway Node is replaced */
  readonly changedMember?: number;
}

/** `count` clusters: cluster-0 is the dedicated leader, every other one a member. */
export function fleet(count: number, options: FleetOptions = {}): ClusterSetInput {
  const member = (i: number) => ({
    clusterID: `cluster-${i}`,
    podCIDRs: [`${dotted(base('10.0.0.0') + i * 256)}/24`],
    serviceCIDR: `${dotted(base('172.16.0.0') + i * 16)}/28`,
    gateways: [{ node: `cluster-${i}-node-${options.changedMember === i ? 2 : 1}`, ip: dotted(base('100.64.0.1') + i) }],
    delivery: { flux: { kubeConfigSecretRef: { name: `cluster-${i}-kubeconfig` } } },
  });
  const exporters = Array.from({ length: Math.min(count - 1, 3) }, (_, i) => `cluster-${i + 1}`);
  return {
    apiVersion: 'antrea-clusterset/v1alpha1',
    kind: 'ClusterSetDefinition',
    metadata: { name: options.name ?? 'fleet' },
    spec: {
      antrea: { version: options.version ?? LATEST_RELEASE.version },
      network: { podToPodConnectivity: true },
      leader: { clusterID: 'cluster-0', server: 'https://192.168.150.101:6443' },
      clusters: [{ clusterID: 'cluster-0', member: false }, ...Array.from({ length: count - 1 }, (_, i) => member(i + 1))],
      services: exporters.length > 0 ? [{ name: 'nginx', namespace: 'demo', exportFrom: exporters }] : [],
      policies: [
        {
          name: 'isolate-namespaces',
          spec: {
            priority: 1,
            tier: 'securityops',
            appliedTo: [{ namespaceSelector: {} }],
            ingress: [
              { action: 'Pass', from: [{ namespaces: { match: 'Self' } }] },
              { action: 'Drop', from: [{ namespaceSelector: {} }] },
            ],
          },
        },
      ],
      delivery: { flux: { sourceRef: { kind: 'GitRepository', name: 'flux-system', namespace: 'flux-system' } } },
    },
  } as unknown as ClusterSetInput;
}
