import { beforeAll, describe, expect, test } from 'vitest';
import { notConverged } from './convergence';
import type { Fleet } from './controllers';
import { replay, type ReplayResult } from './replay';
import { cloneGraph, graphKey, memoStats, withoutMemo } from './replay-memo';
import { withAntreaBehaviour } from './antrea-behaviour';
import { compileDefinition, fleetFor, readDefinition, withBothEngines, type Compiled } from './scenario';
import { deployApplications } from './verification';

/**
 * The replay memo (replay-memo.ts) hands each test a copy of a converged fleet instead of
 * replaying the same first install again. A copy must be the replay's end state, be the test's
 * own (what one test does to its fleet reaches no other), and keep the objects the test holds.
 */
const definition = withBothEngines(readDefinition('clustersets/test-clusterset.yaml'));
let compiled: Compiled;
beforeAll(async () => {
  compiled = await compileDefinition(definition);
});

async function freshFleetWithBehaviour(): Promise<Fleet> {
  const fleet = await freshFleet();
  withAntreaBehaviour(fleet);
  return fleet;
}

async function freshFleet(): Promise<Fleet> {
  const fleet = await fleetFor(definition, compiled, { appNamespaces: true });
  deployApplications(compiled.definition)(fleet);
  return fleet;
}

const install = (fleet: Fleet, engine: 'argocd' | 'flux', previous?: ReplayResult) =>
  replay({ engine, ...compiled.forEngine(engine), fleet, operator: true, previous });

/** Everything a test reads of a fleet: every cluster's objects, its events and Job logs. */
const state = (fleet: Fleet) =>
  JSON.stringify([[...fleet.clusters.values()].map((c) => [c.clusterID, c.version, c.all()]), fleet.events, [...fleet.jobLogs], fleet.fingerprint()]);
/** What a test reads of a result. */
const view = (r: ReplayResult) => JSON.stringify([r.log, r.steps, r.argocd, r.flux, r.units, [...r.fluxRuns.keys()], notConverged(r)]);

describe.each(['flux', 'argocd'] as const)('%s: the first install of test-clusterset', (engine) => {
  test('from the memo: the end state and the result of a replay, in the fleet given, which keeps its clusters', async () => {
    const replayed = await freshFleet();
    const expected = withoutMemo(() => install(replayed, engine));
    expect(notConverged(expected)).toEqual([]);
    // the same replay, memoized: the first computes, the next is a copy
    install(await freshFleet(), engine);
    const fleet = await freshFleet();
    const east = fleet.cluster('test-cluster-east');
    const hits = memoStats.hits;
    const r = install(fleet, engine);
    expect(memoStats.hits).toBe(hits + 1);
    expect(state(fleet)).toBe(state(replayed));
    expect(view(r)).toBe(view(expected));
    expect(r.fleet).toBe(fleet);
    expect(fleet.cluster('test-cluster-east')).toBe(east);
    // the copy is live: the next replay of the next revision goes on from it as from the replayed one
    const moved = (f: Fleet) => f.cluster('test-cluster-east').delete(f.cluster('test-cluster-east').get('v1', 'ConfigMap', 'kube-system', 'antrea-config')!);
    moved(fleet);
    moved(replayed);
    expect(view(withoutMemo(() => install(fleet, engine, r)))).toBe(view(withoutMemo(() => install(replayed, engine, expected))));
    expect(state(fleet)).toBe(state(replayed));
  });

  test('what a test does to its copy reaches no other copy', async () => {
    const first = await freshFleet();
    const r = install(first, engine);
    const pristine = state(first);
    const seen = view(r);
    // a test deletes objects, writes some, and edits its result
    const east = first.cluster('test-cluster-east');
    for (const o of east.list('ConfigMap')) east.delete(o);
    east.put({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'leaked' } });
    east.get('v1', 'Node', undefined, 'test-cluster-east-worker')!.metadata.labels!.leaked = 'yes';
    first.events.push({ cluster: 'test-cluster-east', message: 'leaked' });
    first.jobLogs.clear();
    (r.log as string[]).push('leaked');
    (r.units as Record<string, unknown>).leaked = {};
    const hits = memoStats.hits;
    const second = await freshFleet();
    const again = install(second, engine);
    expect(memoStats.hits).toBe(hits + 1);
    expect(state(second)).toBe(pristine);
    expect(view(again)).toBe(seen);
    expect(state(second)).not.toContain('leaked');
    // and back: the second copy's objects are not the first's
    const node = second.cluster('test-cluster-east').get('v1', 'Node', undefined, 'test-cluster-east-worker')!;
    expect(node).not.toBe(east.get('v1', 'Node', undefined, 'test-cluster-east-worker'));
    expect(node.metadata.labels?.leaked).toBeUndefined();
  });
});

describe('what the memo compares', () => {
  test('a fleet with state in closures (controllers added without their state, an apply a test wraps) is replayed, not memoized', async () => {
    const fleet = await freshFleet();
    fleet.addControllers(() => {});
    const unkeyed = memoStats.unkeyed;
    install(fleet, 'flux');
    expect(memoStats.unkeyed).toBe(unkeyed + 1);
    const wrapped = await freshFleet();
    const c = wrapped.cluster('test-cluster-west');
    const apply = c.apply.bind(c);
    c.apply = (o, options) => apply(o, options);
    expect(graphKey(wrapped)).toBeUndefined();
  });

  test("controllers with their state (Antrea's behaviour): a hit fills the very state their closures hold", async () => {
    const fleets = [await freshFleet(), await freshFleet()];
    const models = fleets.map((f) => withAntreaBehaviour(f));
    const expected = withoutMemo(() => install(fleets[0]!, 'flux'));
    const hits = memoStats.hits;
    install(await freshFleetWithBehaviour(), 'flux');
    const r = install(fleets[1]!, 'flux');
    expect(memoStats.hits).toBe(hits + 1);
    expect(state(fleets[1]!)).toBe(state(fleets[0]!));
    expect(view(r)).toBe(view(expected));
    // the model the test holds is the one the replay moved on (its Gateways elected)
    expect([...models[1]!.activeGateway]).toEqual([...models[0]!.activeGateway]);
    expect(models[1]!.activeGateway.size).toBeGreaterThan(0);
    // its webhooks still refuse into that model: a Tier's priority is immutable
    const east = fleets[1]!.cluster('test-cluster-east');
    const tier = { apiVersion: 'crd.antrea.io/v1beta1', kind: 'Tier', metadata: { name: 'memo-check' }, spec: { priority: 61 } };
    expect(east.apply(tier).ok).toBe(true);
    expect(east.apply({ ...tier, spec: { priority: 62 } }).ok).toBe(false);
    expect(models[1]!.refusals.join('\n')).toMatch(/memo-check: update to Tier priority is not allowed/);
    expect(models[0]!.refusals.join('\n')).not.toMatch(/memo-check/);
  });

  test('one object more, one field changed, or another revision: another key', async () => {
    const fleet = await freshFleet();
    const key = (root: unknown) => graphKey(root)?.key;
    expect(key(fleet)).toBeDefined();
    expect(key(await freshFleet())).toBe(key(fleet));
    const other = await freshFleet();
    other.cluster('test-cluster-west').put({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'x' } });
    expect(key(other)).not.toBe(key(fleet));
    const labelled = await freshFleet();
    labelled.unpullable.add('registry.example.com/x');
    expect(key(labelled)).not.toBe(key(fleet));
    const { revision } = compiled.forEngine('flux');
    const edited = revision.with({ 'dist/x.yaml': 'a: 1\n' });
    expect(key([fleet, { revision }])).toBe(key([fleet, { revision: compiled.forEngine('flux').revision }]));
    expect(key([fleet, { revision: edited }])).not.toBe(key([fleet, { revision }]));
  });

  test('cloneGraph keeps shared objects shared, cycles, prototypes, Maps and Sets', () => {
    class Box {
      constructor(readonly items: Map<string, { n: number }>) {}
      size() {
        return this.items.size;
      }
    }
    const shared = { n: 1 };
    const root = { a: shared, b: shared, box: new Box(new Map([['x', shared]])), set: new Set([shared]), self: undefined as unknown };
    root.self = root;
    const { copy } = cloneGraph(root);
    expect(copy.a).not.toBe(shared);
    expect(copy.a).toBe(copy.b);
    expect(copy.box.items.get('x')).toBe(copy.a);
    expect([...copy.set][0]).toBe(copy.a);
    expect(copy.self).toBe(copy);
    expect(copy.box).toBeInstanceOf(Box);
    expect(copy.box.size()).toBe(1);
    copy.a.n = 2;
    expect(shared.n).toBe(1);
  });
});
