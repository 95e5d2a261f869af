import fc from 'fast-check';
import { expect, test } from 'vitest';
import { answersDiffer, connectionChanges } from '../../src/policy/connection-changes';
import { evaluateConnection } from '../../src/policy/evaluate-connection';
import type { Inventory, InventoryNamespace } from '../../src/policy/inventory';
import { representatives } from '../../src/policy/representative-endpoints';
import { buildWorld } from '../../src/policy/world';
import { cluster, scenarioDefinition } from './scenario-world';
import { SOAK } from '../helpers/soak';

// Property (issue #50 item 2): without an inventory the plan evaluates representative classes cut
// from every selector of both revisions. They are sound: over any concrete inventory, every Pod
// pair and port whose verdict changes between the revisions falls in a representative pair the
// plan reports as changed, with the same verdicts before and after; and where the classes are cut
// short by their bound, a note says so (never a silent truncation).
//
// The test's own model of a class: a label is one of the values the selectors name, another
// value, or absent (read from the generated policies' matchLabels, not from the product's names).

const PORTS = [1, 52, 53, 54, 79, 80, 81, 8079, 8080, 8081, 8999, 9000, 65535];
/**
 * The selectors of one run: Pod labels only, Namespace labels only (both within the class bound
 * for two members), or both (mostly past the bound, which the notes must say).
 */
const COMMON: Record<string, unknown>[] = [
  { namespaceSelector: {} },
  { namespaceSelector: {}, scope: 'ClusterSet' },
  { namespaces: { match: 'Self' } },
  { namespaces: { match: 'Self' }, scope: 'ClusterSet' },
];
const VOCABULARY = {
  pods: {
    peers: [...COMMON, { podSelector: { matchLabels: { app: 'web' } } }, { podSelector: { matchLabels: { app: 'web' } }, scope: 'ClusterSet' }],
    appliedTo: [[{ namespaceSelector: {} }], [{ podSelector: { matchLabels: { app: 'web' } } }]],
  },
  namespaces: {
    peers: [...COMMON, { namespaceSelector: { matchLabels: { org: 'a' } } }, { namespaceSelector: { matchLabels: { org: 'a' } }, scope: 'ClusterSet' }],
    appliedTo: [[{ namespaceSelector: {} }], [{ namespaceSelector: { matchLabels: { org: 'a' } } }]],
  },
  both: {
    peers: [
      ...COMMON,
      { podSelector: { matchLabels: { app: 'api' } }, namespaceSelector: { matchLabels: { org: 'b' } } },
      { podSelector: { matchLabels: { app: 'web' } } },
    ],
    appliedTo: [[{ namespaceSelector: {} }], [{ podSelector: { matchLabels: { app: 'api' } } }], [{ namespaceSelector: { matchLabels: { org: 'a' } } }]],
  },
};
type Vocabulary = (typeof VOCABULARY)[keyof typeof VOCABULARY];
const ports = fc.option(
  fc.array(
    fc
      .record({
        protocol: fc.constantFrom('TCP', 'UDP'),
        port: fc.constantFrom(53, 80, 8080),
        endPort: fc.option(fc.constantFrom(81, 8999), { nil: undefined }),
      })
      .map((p) => (p.endPort !== undefined && p.endPort >= p.port ? p : { protocol: p.protocol, port: p.port })),
    { minLength: 1, maxLength: 2 },
  ),
  { nil: undefined },
);
const rule = (v: Vocabulary, key: 'from' | 'to') =>
  fc
    .record({ action: fc.constantFrom('Allow', 'Drop', 'Reject', 'Pass'), peers: fc.array(fc.constantFrom(...v.peers), { minLength: 1, maxLength: 2 }), ports })
    .map((r) => ({
      action: r.action,
      [key]: r.peers,
      ...(r.ports && { ports: r.ports }),
    }));
const policy = (v: Vocabulary) =>
  fc.record({
    tier: fc.constantFrom('securityops', 'application', 'baseline'),
    priority: fc.integer({ min: 1, max: 3 }),
    appliedTo: fc.constantFrom<unknown[]>(...v.appliedTo),
    ingress: fc.array(rule(v, 'from'), { maxLength: 2 }),
    egress: fc.array(rule(v, 'to'), { maxLength: 1 }),
  });
const policies = (v: Vocabulary, minLength: number) =>
  fc.array(policy(v), { minLength, maxLength: 2 }).map((ps) => ps.map((spec, i) => ({ name: `p${i}`, spec })));
// the head has a policy: a change to find
const revisions = fc
  .constantFrom(VOCABULARY.pods, VOCABULARY.pods, VOCABULARY.namespaces, VOCABULARY.namespaces, VOCABULARY.both)
  .chain((v) => fc.tuple(policies(v, 0), policies(v, 1)));

/** A concrete member: Namespaces (some named as the definition names them: pay, kube-system) with labels, and Pods. */
const label = (values: string[]) => fc.option(fc.constantFrom(...values), { nil: undefined });
const namespace = fc.record({
  name: fc.constantFrom('pay', 'kube-system', 'n1', 'n2'),
  org: label(['a', 'b', 'c']),
  pods: fc.array(fc.record({ app: label(['web', 'api', 'db', 'cache']), extra: fc.boolean() }), { minLength: 1, maxLength: 3 }),
});
const member = (id: string, octet: number) =>
  fc.uniqueArray(namespace, { selector: (n) => n.name, minLength: 1, maxLength: 3 }).map((list) => {
    let ip = 1;
    return cluster(
      id,
      Object.fromEntries(
        list.map((n) => [
          n.name,
          {
            labels: Object.fromEntries(n.org === undefined ? [] : [['org', n.org]]),
            pods: n.pods.map((p, i) => ({
              name: `pod${i}`,
              labels: { ...(p.app !== undefined && { app: p.app }), ...(p.extra && { tier: 'x' }) },
              ip: `10.${octet}.0.${ip++}`,
            })),
          },
        ]),
      ),
    );
  });
const inventory = fc.tuple(member('east', 10), member('west', 20)).map(([east, west]): Inventory => ({
  clusters: new Map([
    ['east', east],
    ['west', west],
  ]),
}));

type Terms = Map<string, Set<string>>;
/** The label terms the policies' selectors name: key → values (the test's own reading of the generated JSON). */
function termsOf(specs: readonly unknown[], selector: 'podSelector' | 'namespaceSelector'): Terms {
  const terms: Terms = new Map();
  const walk = (v: unknown): void => {
    if (Array.isArray(v)) return v.forEach(walk);
    if (typeof v !== 'object' || v === null) return;
    for (const [k, x] of Object.entries(v)) {
      if (k === selector && typeof x === 'object' && x !== null) {
        const m = (x as { matchLabels?: Record<string, string> }).matchLabels ?? {};
        for (const [key, value] of Object.entries(m)) (terms.get(key) ?? terms.set(key, new Set()).get(key)!).add(value);
      }
      walk(x);
    }
  };
  walk(specs);
  return terms;
}
const classOf = (labels: Readonly<Record<string, string>>, terms: Terms): string =>
  JSON.stringify(
    [...terms].sort(([a], [b]) => (a < b ? -1 : 1)).map(([k, values]) => (labels[k] === undefined ? '-' : values.has(labels[k]) ? labels[k] : '*')),
  );

interface Pod {
  readonly cluster: string;
  readonly namespace: InventoryNamespace;
  readonly name: string;
  readonly labels: Readonly<Record<string, string>>;
}
const podsOf = (inv: Inventory): Pod[] =>
  [...inv.clusters].flatMap(([id, c]) =>
    [...c.namespaces.values()].flatMap((n) => n.pods.map((p) => ({ cluster: id, namespace: n, name: p.name, labels: p.labels }))),
  );

test('representative classes are sound: every changed concrete pair is in a changed class pair, or the bound is said', () => {
  fc.assert(
    fc.property(revisions, inventory, ([a, b], concrete) => {
      const base = scenarioDefinition(a);
      const head = scenarioDefinition(b);
      const rep = representatives(base, head);
      const bounded = rep.notes.some((n) => /are analysed \(pass --inventory|clusters are analysed/.test(n));
      const unlabelledNamed = rep.notes.some((n) => /analysed without the Namespace labels/.test(n));
      const notes = rep.notes.join('\n');
      const changes = connectionChanges(base, head, rep.inventory);
      const specs = [...a, ...b].map((p) => p.spec);
      const podTerms = termsOf(specs, 'podSelector');
      const nsTerms = termsOf(specs, 'namespaceSelector');
      // Self (or sameLabels) with ClusterSet scope: Namespace names matter across clusters
      const stretchedSelf = JSON.stringify(specs).includes('"namespaces":{"match":"Self"},"scope":"ClusterSet"');
      const repPods = podsOf(rep.inventory);
      // the Namespaces the definitions name (kube-system, the multi-cluster Services'): represented by name
      const names = new Set(['kube-system', ...[base, head].flatMap((d) => d.spec.services.map((s) => s.namespace))]);
      const named = (ns: InventoryNamespace) => names.has(ns.name);
      /** The representative of a concrete Pod: same cluster, a Namespace of the same name or class (`twin` tells two apart), a Pod of the same class. */
      const representative = (p: Pod, twin: number): Pod | undefined => {
        const candidates = repPods.filter(
          (r) =>
            r.cluster === p.cluster &&
            classOf(r.labels, podTerms) === classOf(p.labels, podTerms) &&
            (named(p.namespace)
              ? r.namespace.name === p.namespace.name
              : !named(r.namespace) && classOf(r.namespace.labels, nsTerms) === classOf(p.namespace.labels, nsTerms)),
        );
        const namespaces = [...new Set(candidates.map((r) => r.namespace.name))].sort();
        const ns = namespaces[Math.min(twin, namespaces.length - 1)];
        return candidates.find((r) => r.namespace.name === ns);
      };
      const before = buildWorld(base, concrete);
      const after = buildWorld(head, concrete);
      const pods = podsOf(concrete);
      for (const x of pods)
        for (const y of pods) {
          // Self compares Namespace names (across clusters too, with ClusterSet scope): one name is one representative name, two are two
          const sameNs = x.namespace.name === y.namespace.name;
          const sameClass = classOf(x.namespace.labels, nsTerms) === classOf(y.namespace.labels, nsTerms);
          const rx = representative(x, 0);
          const ry = representative(y, !sameNs && sameClass ? 1 : 0);
          // one name in two clusters with two label classes: its representatives have two names
          const renamed = rx !== undefined && ry !== undefined && sameNs !== (rx.namespace.name === ry.namespace.name);
          const from = { kind: 'pod' as const, cluster: x.cluster, namespace: x.namespace.name, name: x.name };
          const to = { kind: 'pod' as const, cluster: y.cluster, namespace: y.namespace.name, name: y.name };
          // a named Namespace stands unlabelled (one per cluster): a labelled one is said, not represented
          const labelled = [x, y].some((p) => named(p.namespace) && classOf(p.namespace.labels, nsTerms) !== classOf({}, nsTerms));
          for (const protocol of ['TCP', 'UDP'])
            for (const port of PORTS) {
              const u = evaluateConnection(before, from, to, { protocol, port });
              const v = evaluateConnection(after, from, to, { protocol, port });
              const changed = answersDiffer(u, v) && u.verdict !== v.verdict;
              const where = `${u.from} → ${u.to} ${protocol}/${port}: ${u.verdict} → ${v.verdict}`;
              if (labelled) {
                if (changed) expect(unlabelledNamed, `${where}: a labelled named Namespace, and no note of it`).toBe(true);
                continue;
              }
              if (renamed && stretchedSelf) {
                if (changed)
                  expect(sameNs && !sameClass && notes.includes('a Namespace name carries one label class'), `${where}: Self misrepresented, unsaid`).toBe(
                    true,
                  );
                continue;
              }
              if (!rx || !ry) {
                // every pair has its class pair, unless the bound cut the classes and the notes say so
                expect(bounded, `${where}: no representative pair, and no note of a bound`).toBe(true);
                continue;
              }
              const listed = changes.find((c) => {
                if (c.from !== `${rx.cluster}/${rx.namespace.name}/${rx.name}` || c.to !== `${ry.cluster}/${ry.namespace.name}/${ry.name}`) return false;
                const m = /^(\w+)\/(\d+)(?:-(\d+))?$/.exec(c.ports)!;
                return m[1] === protocol && Number(m[2]) <= port && port <= Number(m[3] ?? m[2]);
              });
              if (changed) expect(listed, `${where}: missed (representatives ${rx.namespace.name}/${rx.name} → ${ry.namespace.name}/${ry.name})`).toBeDefined();
              // a listed class pair has the concrete pair's verdicts: the class decides as its members do
              if (listed) expect([listed.before.verdict, listed.after.verdict], where).toEqual([u.verdict, v.verdict]);
            }
        }
    }),
    // a few inventories in npm test, many in the soak tier (test/helpers/soak.ts); PROPERTY_RUNS for a hunt
    { numRuns: Number(process.env.PROPERTY_RUNS ?? (SOAK ? 24 : 4)) },
  );
});
