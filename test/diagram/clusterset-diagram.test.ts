import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { clusterSetDiagram, groupByPrefix } from '../../src/diagram/clusterset-diagram';
import { MERMAID_MAX_EDGES, MERMAID_MAX_TEXT, mermaidText, mermaidTextSize } from '../../src/diagram/mermaid';
import { effectiveClusters } from '../../src/model/effective';
import { planDiagram } from '../../src/plan/plan-diagram';
import { MARKDOWN_LIMIT, renderPlan } from '../../src/plan/render-plan';
import type { ClusterSet } from '../../src/model/clusterset';
import { EXAMPLES, HOSTILE, define, everyImpactPlan, example, fleetOf, hostileDefinition, mermaidBlocks, planBetween, wideChangePlan } from './cases';

/** What Mermaid shows for an escaped label: entities decoded. */
const decode = (s: string) => s.replace(/#(\d+);/g, (_, n: string) => String.fromCodePoint(Number(n)));

/**
 * Any code point, a lone surrogate included: the strings of fast-check's `binary` unit, without the
 * reverse map of all 1.1 million of them that fast-check builds on that unit's first use (a second
 * of CPU, most of this file's time).
 */
const codePoint = fc.integer({ min: 0, max: 0x10ffff }).map(
  (n) => String.fromCodePoint(n),
  (s) => {
    if (typeof s !== 'string' || Array.from(s).length !== 1) throw new Error('not one code point');
    return s.codePointAt(0)!;
  },
);

describe('labels', () => {
  test('only plain characters and numeric entities reach Mermaid, and they decode to the value', () => {
    fc.assert(
      fc.property(fc.string({ unit: codePoint, maxLength: 60 }), (s) => {
        const out = mermaidText(s);
        expect(out).toMatch(/^(?:[A-Za-z0-9 ./,_-]|#\d+;)*$/);
        expect(decode(out)).toBe(s);
      }),
    );
  });

  test('a long value is cut on code points with an ellipsis', () => {
    const out = mermaidText('\u{1F680}'.repeat(100), 10);
    expect(decode(out)).toBe(`${'\u{1F680}'.repeat(9)}…`);
  });

  test.each([
    ['CRLF line ends count as one character', 'flowchart LR\r\n  a\r\n', 'flowchart LR\n  a\n'.length],
    ['comment lines and leading blank space are not counted', '\n  %% a note\nflowchart LR\n  %% another\n  a\n', 'flowchart LR\n  a\n'.length],
  ])('mermaidTextSize: %s', (_, text, size) => expect(mermaidTextSize(text)).toBe(size));
});

describe('the ClusterSet diagram', () => {
  test.each(EXAMPLES)('$name: golden', async ({ name, definition }) => {
    const d = clusterSetDiagram(definition)!;
    expect(d.folded).toBe(false);
    await expect(d.text).toMatchFileSnapshot(`../fixtures/diagram/${name}.mmd`);
  });

  test('draws the leader with its Namespace, every member with its CIDRs and Gateways, Services, policies, Tiers and the engine', () => {
    const d = define({
      ...fleetOf(4),
      spec: {
        ...fleetOf(4).spec,
        clusters: fleetOf(4).spec.clusters.map((c, i) => (i === 2 ? { ...c, network: { tunnelType: 'vxlan', tunnelPort: 8472 } } : c)),
        tiers: [{ name: 'guard', priority: 20 }],
        policies: [{ name: 'p1', spec: { tier: 'guard' } }],
      },
    });
    const text = decode(clusterSetDiagram(d)!.text);
    for (const s of [
      'leader cluster-0',
      'Namespace antrea-multicluster',
      'cluster-3<br/>Pod 10.0.3.0/24, Service 172.16.0.48/28<br/>Gateway cluster-3-node-1 100.64.0.4',
      'differs: tunnelType vxlan, tunnelPort 8472',
      'Service demo/nginx',
      'policy p1<br/>Tier guard',
      'Tier guard<br/>priority 20',
      'Flux Kustomizations in flux-system',
    ])
      expect(text).toContain(s);
    // exactly one member differs in its tunnel
    expect(text.match(/differs:/g)).toHaveLength(1);
  });

  test('the same definition gives the same bytes', () => {
    const d = fleetOf(500);
    expect(clusterSetDiagram(d)!.text).toBe(clusterSetDiagram(structuredClone(d))!.text);
  });

  test.each([1, 2, 3, 30, 31, 100, 1000, 3000, 10_000])('%i clusters: within Mermaid limits, folded past 30 members', (n) => {
    const d = clusterSetDiagram(fleetOf(n))!;
    expect(d.chars).toBeLessThanOrEqual(MERMAID_MAX_TEXT);
    expect(d.edges).toBeLessThanOrEqual(MERMAID_MAX_EDGES);
    expect(d.folded).toBe(n - 1 > 30);
    if (n > 31) expect(d.text.match(/ members<br\/>/g)!.length).toBeLessThanOrEqual(20);
  });

  test.each([3, 40, 1000])('hostile names with %i members stay within the limits; no name reaches Mermaid unescaped', (n) => {
    const d = clusterSetDiagram(hostileDefinition(n, true))!;
    expect(d.chars).toBeLessThanOrEqual(MERMAID_MAX_TEXT);
    expect(d.edges).toBeLessThanOrEqual(MERMAID_MAX_EDGES);
    // every quoted string holds only plain characters, entities and our <br/>
    for (const q of d.text.match(/"[^"]*"/g)!) expect(q).toMatch(/^"(?:[A-Za-z0-9 ./,_-]|#\d+;|<br\/>)*"$/);
    // statements are ours: no click, style, link or comment line from a name
    for (const line of d.text.split('\n').filter(Boolean))
      expect(line.replace(/"[^"]*"/g, '""')).toMatch(
        /^(flowchart LR|\s+(subgraph \w+\[""\]|end|\w+\[""\]|\w+ (-->|-\.->)\|""\| \w+|\w+ ~~~ \w+|classDef \w+ [\w:#,. -]+|class [\w,]+ \w+))$/,
      );
  });

  test('a budget too small for any diagram gives none', () => {
    expect(clusterSetDiagram(fleetOf(10), { maxChars: 100 })).toBeUndefined();
  });
});

describe('grouping members', () => {
  const clusters = (ids: string[]) =>
    effectiveClusters(
      define({
        ...fleetOf(2),
        spec: { ...fleetOf(2).spec, leader: { ...fleetOf(2).spec.leader, clusterID: ids[0]! }, clusters: ids.map((clusterID) => ({ clusterID })) },
      }),
    );
  test('by the longest common ID prefix that gives at most the maximum of groups', () => {
    const ids = ['eu-west-1', 'eu-west-2', 'eu-east-1', 'us-east-1', 'us-east-2', 'us-west-1'];
    expect(groupByPrefix(clusters(ids), 4).map((g) => [g.label, g.members.length])).toEqual([
      ['eu-west-*', 2],
      ['eu-east-1', 1],
      ['us-east-*', 2],
      ['us-west-1', 1],
    ]);
    expect(groupByPrefix(clusters(ids), 2).map((g) => [g.label, g.members.length])).toEqual([
      ['eu-*', 3],
      ['us-*', 3],
    ]);
  });
  test('else by runs of IDs in natural order', () => {
    const ids = Array.from({ length: 12 }, (_, i) => `c${12 - i}`);
    expect(groupByPrefix(clusters(ids), 3).map((g) => g.label)).toEqual(['c1 to c4', 'c5 to c8', 'c9 to c12']);
  });
});

describe('the change drawn in the plan', () => {
  const classOf = (text: string, cls: string) => text.match(new RegExp(`^  class ([\\w,]+) ${cls}$`, 'm'))?.[1]?.split(',') ?? [];
  const nodeOf = (text: string, label: string) => new RegExp(`^\\s+(\\w+)\\["[^"]*${label}`, 'm').exec(text)?.[1];

  test('every impact class, the most severe of a cluster winning, removed and added parts, and a legend (golden)', async () => {
    const plan = everyImpactPlan();
    const md = planDiagram(plan, 'demo-clusterset', MERMAID_MAX_TEXT);
    const [text] = mermaidBlocks(md);
    await expect(text).toMatchFileSnapshot('../fixtures/diagram/plan-every-impact.mmd');
    const node = (label: string) => nodeOf(text!, label)!;
    expect(classOf(text!, 'destructive')).toContain(node('removed#58; demo-cluster-member3'));
    expect(classOf(text!, 'removed')).toContain(node('removed#58; demo-cluster-member3'));
    expect(classOf(text!, 'disruptive')).toContain(node('changed#58; demo-cluster-member2'));
    expect(classOf(text!, 'rollout')).toContain('L');
    expect(classOf(text!, 'safe')).toEqual(expect.arrayContaining([node('added#58; demo-cluster-member4'), node('Service shop/web'), node('policy deny-all')]));
    expect(classOf(text!, 'added')).toContain(node('added#58; demo-cluster-member4'));
    expect(text).toContain('subgraph legend');
    // a cluster with a disruptive and a safe change is disruptive
    const both = planBetween(
      define(fleetOf(3)),
      define({ ...fleetOf(3), spec: { ...fleetOf(3).spec, services: [{ name: 'nginx', namespace: 'demo', exportFrom: ['cluster-1'] }] } }),
    );
    const changed = mermaidBlocks(planDiagram(both, 'fleet', MERMAID_MAX_TEXT))[0]!;
    expect(both.changes.map((c) => c.impact)).toEqual(['disruptive']);
    expect(classOf(changed, 'disruptive')).toEqual(expect.arrayContaining([nodeOf(changed, 'changed#58; cluster-2')]));
  });

  // a change of the whole ClusterSet (an upgrade) restarts the Pods that run; a joining member has none yet (#49 item 11)
  test('a member joining in an upgrade is safe and drawn so, with safe in the legend', () => {
    const base = example('demo-clusterset') as unknown as { spec: { antrea: { version: string }; clusters: Record<string, unknown>[] } };
    base.spec.antrea.version = 'v2.6.3';
    const head = structuredClone(base);
    head.spec.antrea.version = 'v2.7.0';
    head.spec.clusters.push({
      clusterID: 'demo-cluster-member4',
      podCIDRs: ['10.244.48.0/20'],
      serviceCIDR: '10.96.48.0/20',
      gateways: [{ node: 'cl4-node1' }],
    });
    const plan = planBetween(define(base), define(head));
    expect(plan.changes.map((c) => `${c.impact} ${c.text}`)).toContain('safe member demo-cluster-member4 joins');
    const text = mermaidBlocks(planDiagram(plan, 'demo-clusterset', MERMAID_MAX_TEXT))[0]!;
    const joining = nodeOf(text, 'added#58; demo-cluster-member4')!;
    expect(classOf(text, 'safe')).toContain(joining);
    expect(classOf(text, 'rollout')).not.toContain(joining);
    expect(classOf(text, 'rollout')).toContain(nodeOf(text, 'demo-cluster-member2'));
    expect(text).toMatch(/^    k\d+\["safe"\]$/m);
  });

  test('a large fleet shows only the touched part', () => {
    const base = fleetOf(1000);
    const head = structuredClone(base);
    head.spec.clusters[42]!.gateways = [{ node: 'moved' }, ...base.spec.clusters[42]!.gateways.map((g) => ({ ...g, retired: true }))];
    const text = decode(mermaidBlocks(planDiagram(planBetween(base, head), 'fleet', MERMAID_MAX_TEXT))[0]!);
    expect(text).toContain('changed: cluster-42');
    expect(text).toContain('998 unchanged members');
    expect(text).not.toContain('cluster-43');
  });

  test('a removed ClusterSet is drawn as it was, every cluster removed and destructive', () => {
    const plan = planBetween(define(example('demo-clusterset')), undefined);
    const text = mermaidBlocks(planDiagram(plan, 'demo-clusterset', MERMAID_MAX_TEXT))[0]!;
    expect(decode(text)).toContain('removed: demo-cluster-member2');
    expect(decode(text)).toContain('removed: leader demo-cluster-leader');
    expect(classOf(text, 'destructive')).toEqual(expect.arrayContaining(['L', 'm1', 'm2']));
    expect(classOf(text, 'removed')).toEqual(expect.arrayContaining(['L', 'm1', 'm2']));
  });

  test('many large ClusterSets changed at once: the comment stays under its limit and every diagram within Mermaid limits', () => {
    // one change of a 200-member fleet, planned again under twelve names
    const p = wideChangePlan(200);
    const sets = Array.from({ length: 12 }, (_, i) => {
      const rename = (d: ClusterSet) => ({ ...d, metadata: { name: `fleet-${String(i).padStart(2, '0')}` } });
      return planBetween(rename(p.definitions!.base.get('fleet')!), rename(p.definitions!.head.get('fleet')!));
    });
    const plan = {
      changes: sets.flatMap((p) => p.changes),
      counts: [],
      objectChanges: [],
      definitions: { base: new Map(sets.flatMap((p) => [...p.definitions!.base])), head: new Map(sets.flatMap((p) => [...p.definitions!.head])) },
    };
    const md = renderPlan('markdown', plan, { base: 'main', head: 'work tree' });
    expect(md.length).toBeLessThanOrEqual(MARKDOWN_LIMIT);
    const blocks = mermaidBlocks(md);
    expect(blocks.length).toBeGreaterThan(0);
    for (const b of blocks) expect(mermaidTextSize(b)).toBeLessThanOrEqual(MERMAID_MAX_TEXT);
  });

  test('hostile names in a plan reach Mermaid escaped', () => {
    const base = hostileDefinition(40, true);
    const head = structuredClone(base);
    head.spec.clusters = head.spec.clusters.slice(0, -3);
    head.spec.services = head.spec.services.slice(1);
    head.spec.clusters[2]!.gateways = [{ node: HOSTILE[1]! }, ...base.spec.clusters[2]!.gateways.map((g) => ({ ...g, retired: true }))];
    const md = planDiagram(planBetween(base, head), base.metadata.name, MERMAID_MAX_TEXT);
    const text = mermaidBlocks(md)[0]!;
    for (const q of text.match(/"[^"]*"/g)!) expect(q).toMatch(/^"(?:[A-Za-z0-9 ./,_-]|#\d+;|<br\/>)*"$/);
    expect(text).toContain('classDef destructive');
  });

  test('the plan comment of a 300-member change, with its diagram, fits a pull-request comment', () => {
    const md = renderPlan('markdown', wideChangePlan(300), { base: 'main', head: 'work tree' });
    expect(md.length).toBeLessThanOrEqual(MARKDOWN_LIMIT);
    const [text] = mermaidBlocks(md);
    expect(mermaidTextSize(text!)).toBeLessThanOrEqual(MERMAID_MAX_TEXT);
    expect(text).toContain('classDef destructive');
  });
});
