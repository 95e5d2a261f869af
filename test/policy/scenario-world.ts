import { ClusterSetSchema, type ClusterSet, type ClusterSetInput } from '../../src/model/clusterset';
import {
  namespaceLabels,
  type Inventory,
  type InventoryCluster,
  type InventoryPod,
  type InventoryService,
  type KubernetesNetworkPolicy,
} from '../../src/policy/inventory';

type Policy = ClusterSetInput['spec']['policies'] extends (infer P)[] | undefined ? P : never;

/**
 * A ClusterSet of scenarios: leader `hub` (dedicated), members east and west with Gateways,
 * stretched policy and Pod-to-Pod on, Service `pay/api` exported from west; the policies and
 * anything else as each scenario states.
 */
export function scenarioDefinition(
  policies: readonly Policy[],
  extra: { tiers?: ClusterSetInput['spec']['tiers']; network?: Record<string, unknown>; clusters?: unknown[]; services?: unknown[] } = {},
): ClusterSet {
  return ClusterSetSchema.parse({
    apiVersion: 'antrea-clusterset/v1alpha1',
    kind: 'ClusterSetDefinition',
    metadata: { name: 'scenarios' },
    spec: {
      antrea: { version: 'v2.7.0' },
      leader: { clusterID: 'hub', server: 'https://10.0.0.1:6443' },
      network: { stretchedNetworkPolicy: true, podToPodConnectivity: true, ...extra.network },
      clusters: extra.clusters ?? [
        { clusterID: 'hub', member: false },
        { clusterID: 'east', podCIDRs: ['10.10.0.0/16'], serviceCIDR: '10.96.0.0/16', gateways: [{ node: 'east-gw', ip: '172.18.0.10' }] },
        { clusterID: 'west', podCIDRs: ['10.20.0.0/16'], serviceCIDR: '10.112.0.0/16', gateways: [{ node: 'west-gw', ip: '172.18.0.20' }] },
      ],
      services: extra.services ?? [{ name: 'api', namespace: 'pay', exportFrom: ['west'] }],
      tiers: extra.tiers ?? [],
      policies,
    },
  });
}

interface NsInput {
  labels?: Record<string, string>;
  pods?: InventoryPod[];
  services?: InventoryService[];
}

/** `networkPolicies: 'unknown'`: the inventory does not say (key absent). */
export function cluster(clusterID: string, namespaces: Record<string, NsInput>, networkPolicies: KubernetesNetworkPolicy[] | 'unknown' = []): InventoryCluster {
  return {
    clusterID,
    namespaces: new Map(
      Object.entries(namespaces).map(([name, n]) => [
        name,
        { name, labels: namespaceLabels(name, n.labels ?? {}), pods: n.pods ?? [], services: n.services ?? [] },
      ]),
    ),
    ...(networkPolicies !== 'unknown' && { networkPolicies }),
  };
}

/**
 * The scenarios' inventory: east runs shop/web (org=a) and kube-system/coredns; west runs
 * pay/api (org=b) behind Service api (8080 → 8080, ClusterIP 10.112.0.50), pay/worker and its own
 * shop/web (org=a).
 */
export function scenarioInventory(over: { east?: InventoryCluster; west?: InventoryCluster } = {}): Inventory {
  const east =
    over.east ??
    cluster('east', {
      shop: {
        labels: { org: 'a', role: 'tenant' },
        pods: [
          { name: 'web', labels: { app: 'web' }, ip: '10.10.1.5' },
          { name: 'cart', labels: { app: 'cart' }, ip: '10.10.1.6' },
        ],
      },
      'kube-system': {
        pods: [{ name: 'coredns', labels: { 'k8s-app': 'kube-dns' }, ip: '10.10.0.2' }],
        services: [{ name: 'kube-dns', selector: { 'k8s-app': 'kube-dns' }, ports: [{ port: 53, protocol: 'UDP', targetPort: 53 }], clusterIP: '10.96.0.10' }],
      },
      pay: { labels: { org: 'b' }, pods: [{ name: 'api', labels: { app: 'api' }, ip: '10.10.2.7' }] },
    });
  const west =
    over.west ??
    cluster('west', {
      pay: {
        labels: { org: 'b', role: 'tenant' },
        pods: [
          { name: 'api', labels: { app: 'api' }, ip: '10.20.1.5' },
          { name: 'worker', labels: { app: 'worker' }, ip: '10.20.1.6' },
        ],
        services: [{ name: 'api', selector: { app: 'api' }, ports: [{ port: 8080, protocol: 'TCP', targetPort: 8080 }], clusterIP: '10.112.0.50' }],
      },
      shop: { labels: { org: 'a' }, pods: [{ name: 'web', labels: { app: 'web' }, ip: '10.20.2.5' }] },
    });
  return {
    clusters: new Map([
      ['east', east],
      ['west', west],
    ]),
  };
}
