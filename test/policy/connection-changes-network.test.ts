import { describe, expect, test } from 'vitest';
import { answersDiffer, connectionChanges } from '../../src/policy/connection-changes';
import type { Endpoint } from '../../src/policy/endpoint';
import { evaluateConnection } from '../../src/policy/evaluate-connection';
import { buildWorld } from '../../src/policy/world';
import { scenarioDefinition, scenarioInventory } from './scenario-world';

// connectionChanges skips the evaluation when two revisions hold the same effective network per
// cluster (and the same policies, Services, Gateways): a network value written out on a cluster
// that spec.network already gives (as plan --live's imported definition writes the leader's) is
// no change; the same value changed, on a cluster or in spec.network, is one.

const HUB = { clusterID: 'hub', member: false };
const EAST = { clusterID: 'east', podCIDRs: ['10.10.0.0/16'], serviceCIDR: '10.96.0.0/16', gateways: [{ node: 'east-gw', ip: '172.18.0.10' }] };
const WEST = { clusterID: 'west', podCIDRs: ['10.20.0.0/16'], serviceCIDR: '10.112.0.0/16', gateways: [{ node: 'west-gw', ip: '172.18.0.20' }] };
const POLICY = {
  name: 'p',
  spec: {
    tier: 'securityops',
    priority: 1,
    appliedTo: [{ namespaceSelector: {} }],
    ingress: [{ action: 'Drop', from: [{ namespaceSelector: {}, scope: 'ClusterSet' }] }],
  },
};
const at = (clusters: unknown[], network: Record<string, unknown> = {}) => scenarioDefinition([POLICY], { clusters, network });

/** Whether any Pod-to-Pod answer of the inventory differs between the revisions, evaluated pair by pair. */
function anyAnswerDiffers(base: ReturnType<typeof at>, head: ReturnType<typeof at>): boolean {
  const inventory = scenarioInventory();
  const [before, after] = [buildWorld(base, inventory), buildWorld(head, inventory)];
  const pods: Endpoint[] = [];
  for (const [id, c] of inventory.clusters)
    for (const ns of c.namespaces.values()) for (const p of ns.pods) pods.push({ kind: 'pod', cluster: id, namespace: ns.name, name: p.name });
  return pods.some((from) =>
    pods.some((to) =>
      [80, 8080].some((port) =>
        answersDiffer(evaluateConnection(before, from, to, { protocol: 'TCP', port }), evaluateConnection(after, from, to, { protocol: 'TCP', port })),
      ),
    ),
  );
}

describe('connection changes of a network value', () => {
  test.each([
    {
      name: "spec.network's values written out on the leader and a member",
      head: at([{ ...HUB, network: { podToPodConnectivity: true, stretchedNetworkPolicy: true } }, { ...EAST, network: { podToPodConnectivity: true } }, WEST]),
      changes: false,
    },
    { name: 'Pod-to-Pod off on one member', head: at([HUB, { ...EAST, network: { podToPodConnectivity: false } }, WEST]), changes: true },
    { name: 'stretched policy off in spec.network', head: at([HUB, EAST, WEST], { stretchedNetworkPolicy: false }), changes: true },
  ])('$name: changes $changes, as the pairs evaluated one by one say', ({ head, changes }) => {
    const base = at([HUB, EAST, WEST]);
    expect(anyAnswerDiffers(base, head)).toBe(changes);
    expect(connectionChanges(base, head, scenarioInventory()).length > 0).toBe(changes);
  });
});
