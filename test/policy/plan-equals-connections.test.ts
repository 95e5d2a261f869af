import fc from 'fast-check';
import { expect, test } from 'vitest';
import { answersDiffer, connectionChanges } from '../../src/policy/connection-changes';
import { endpointWords, type Endpoint } from '../../src/policy/endpoint';
import { evaluateConnection } from '../../src/policy/evaluate-connection';
import { buildWorld } from '../../src/policy/world';
import { scenarioDefinition, scenarioInventory } from './scenario-world';
import { SOAK } from '../helpers/soak';

// Property: the plan's changed pairs are exactly the pairs whose `connections` answer differs
// between the two revisions, over the inventory, at every probed port (boundaries of the ports
// the policies use included).

const PORTS = [1, 53, 79, 80, 81, 443, 8000, 8079, 8080, 8081, 8999, 9000, 65535];
const peer = fc.constantFrom<unknown>(
  { namespaceSelector: {} },
  { namespaceSelector: {}, scope: 'ClusterSet' },
  { namespaceSelector: { matchLabels: { org: 'a' } }, scope: 'ClusterSet' },
  { podSelector: { matchLabels: { app: 'web' } } },
  { namespaces: { match: 'Self' } },
  { namespaces: { match: 'Self' }, scope: 'ClusterSet' },
  { ipBlock: { cidr: '10.20.0.0/16' } },
  { ipBlock: { cidr: '172.18.0.10/32' } },
  { ipBlock: { cidr: '10.112.0.50/32' } },
);
const ports = fc.option(
  fc.array(
    fc
      .record({
        protocol: fc.constantFrom('TCP', 'UDP'),
        port: fc.constantFrom(53, 80, 8000, 8080),
        endPort: fc.option(fc.constantFrom(81, 8999), { nil: undefined }),
      })
      .map((p) => (p.endPort !== undefined && p.endPort >= p.port ? p : { protocol: p.protocol, port: p.port })),
    { minLength: 1, maxLength: 2 },
  ),
  { nil: undefined },
);
const rule = (key: 'from' | 'to') =>
  fc.record({ action: fc.constantFrom('Allow', 'Drop', 'Reject', 'Pass'), peers: fc.array(peer, { minLength: 1, maxLength: 2 }), ports }).map((r) => ({
    action: r.action,
    [key]: r.peers,
    ...(r.ports && { ports: r.ports }),
  }));
const policy = fc.record({
  tier: fc.constantFrom('securityops', 'application', 'baseline'),
  priority: fc.integer({ min: 1, max: 3 }),
  appliedTo: fc.constantFrom<unknown[]>(
    [{ namespaceSelector: {} }],
    [{ podSelector: { matchLabels: { app: 'api' } } }],
    [{ namespaceSelector: { matchLabels: { org: 'a' } } }],
  ),
  ingress: fc.array(rule('from'), { maxLength: 2 }),
  egress: fc.array(rule('to'), { maxLength: 2 }),
});
const policies = fc.array(policy, { maxLength: 3 }).map((ps) => ps.map((spec, i) => ({ name: `p${i}`, spec })));

test('plan connections == pairs whose connections answer differs', () => {
  const inventory = scenarioInventory();
  fc.assert(
    fc.property(policies, policies, (a, b) => {
      const base = scenarioDefinition(a);
      const head = scenarioDefinition(b);
      const changes = connectionChanges(base, head, inventory);
      const before = buildWorld(base, inventory);
      const after = buildWorld(head, inventory);
      const pods: Endpoint[] = [];
      for (const [id, c] of inventory.clusters)
        for (const ns of c.namespaces.values()) for (const p of ns.pods) pods.push({ kind: 'pod', cluster: id, namespace: ns.name, name: p.name });
      const targets: { to: Endpoint; ports: [string, number][] }[] = [
        ...pods.map((to) => ({
          to,
          ports: PORTS.flatMap((p): [string, number][] => [
            ['TCP', p],
            ['UDP', p],
          ]),
        })),
        { to: { kind: 'mcs', namespace: 'pay', name: 'api', exporter: 'west' }, ports: [['TCP', 8080]] },
        { to: { kind: 'service', cluster: 'west', namespace: 'pay', name: 'api' }, ports: [['TCP', 8080]] },
        { to: { kind: 'service', cluster: 'east', namespace: 'kube-system', name: 'kube-dns' }, ports: [['UDP', 53]] },
      ];
      for (const from of pods)
        for (const { to, ports: probe } of targets)
          for (const [protocol, port] of probe) {
            const x = evaluateConnection(before, from, to, { protocol, port });
            const y = evaluateConnection(after, from, to, { protocol, port });
            const listed = changes.filter((c) => {
              if (c.from !== endpointWords(from) || c.to !== endpointWords(to)) return false;
              const m = /^(\w+)\/(\d+)(?:-(\d+))?$/.exec(c.ports)!;
              return m[1] === protocol && Number(m[2]) <= port && port <= Number(m[3] ?? m[2]);
            });
            expect(listed.length, `${x.from} → ${x.to} ${protocol}/${port}`).toBe(answersDiffer(x, y) ? 1 : 0);
            if (listed[0]) expect([listed[0].before.verdict, listed[0].after.verdict]).toEqual([x.verdict, y.verdict]);
          }
    }),
    // a few pairs of revisions in npm test, many in the soak tier (test/helpers/soak.ts)
    { numRuns: SOAK ? 30 : 5 },
  );
});
