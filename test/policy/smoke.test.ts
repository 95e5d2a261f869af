import { expect, test } from 'vitest';
import { parseEndpoint, parsePort, type Endpoint, type PortWord } from '../../src/policy/endpoint';
import { evaluateConnection } from '../../src/policy/evaluate-connection';
import { buildWorld } from '../../src/policy/world';
import { scenarioDefinition, scenarioInventory } from './scenario-world';

test('smoke', () => {
  const def = scenarioDefinition([
    { name: 'deny', spec: { priority: 1, tier: 'securityops', appliedTo: [{ namespaceSelector: {} }], ingress: [{ action: 'Pass', from: [{ namespaces: { match: 'Self' } }] }, { action: 'Drop', from: [{ namespaceSelector: {}, scope: 'ClusterSet' }] }] } },
  ]);
  const world = buildWorld(def, scenarioInventory());
  const q = (a: string, b: string, p: string) => evaluateConnection(world, parseEndpoint(a) as Endpoint, parseEndpoint(b) as Endpoint, parsePort(p) as PortWord);
  console.log(JSON.stringify([q('east/shop/web', 'west/pay/api', 'TCP/8080'), q('east/shop/web', 'mcs/pay/api@west', 'TCP/8080'), q('east/shop/web', 'east/shop/cart', 'TCP/80'), q('east/shop/web', 'east/kube-system/service/kube-dns', 'UDP/53')], null, 1));
  expect(1).toBe(1);
});
