import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { changedOutputs } from '../../src/plan/changed-outputs';
import { planChanges } from '../../src/plan/plan-changes';
import { hasDestructive } from '../../src/plan/plan';
import { example, lines, revision, type Definition } from '../helpers/plan-revision';
import { perMemberCredentialsMove } from '../helpers/releases';

/** Each case: a base, a change of it, and the plan lines it must contain (and whether it is destructive). */
const cases: { name: string; base: () => Definition; head: (d: Definition) => Definition | undefined; expected: string[]; destructive: boolean }[] = [
  {
    name: 'add a member',
    base: () => example('test-clusterset'),
    head: (d) => (
      d.spec.clusters.push({
        clusterID: 'test-cluster-south',
        serviceCIDR: '10.128.0.0/16',
        gateways: [{ node: 'south-1' }],
        delivery: { flux: { kubeConfigSecretRef: { name: 'south-kubeconfig' } } },
      }),
      d
    ),
    expected: ['[safe] member test-cluster-south joins'],
    destructive: false,
  },
  {
    name: 'remove a member',
    base: () => example('test-clusterset'),
    head: (d) => ((d.spec.clusters = d.spec.clusters.filter((c) => c.clusterID !== 'test-cluster-east')), d),
    expected: ['[destructive] member test-cluster-east leaves (its leader credentials are revoked)'],
    destructive: true,
  },
  {
    name: 'rename the ClusterSet',
    base: () => example('test-clusterset'),
    head: (d) => ((d.metadata.name = 'prod-clusterset'), d),
    expected: [
      '[destructive] ClusterSet test-clusterset is renamed to prod-clusterset: every cluster leaves test-clusterset and joins prod-clusterset, and the bundles move to new folders',
    ],
    destructive: true,
  },
  {
    name: 'remove the definition',
    base: () => example('test-clusterset'),
    head: () => undefined,
    expected: ['[destructive] ClusterSet test-clusterset is removed with its 3 bundles'],
    destructive: true,
  },
  {
    name: 'change a Pod CIDR',
    base: () => example('demo-clusterset'),
    head: (d) => ((d.spec.clusters[1]!.podCIDRs = ['10.244.48.0/20']), d),
    expected: ['[disruptive] Pod CIDRs of demo-cluster-member2 change from 10.244.16.0/20 to 10.244.48.0/20'],
    destructive: false,
  },
  {
    name: 'move a Gateway',
    base: () => example('demo-clusterset'),
    head: (d) => ((d.spec.clusters[2]!.gateways = [{ node: 'cl3-node2' }, { node: 'cl3-node1', retired: true }]), d),
    expected: ['[disruptive] Gateway of demo-cluster-member3 moves from cl3-node1 to cl3-node2'],
    destructive: false,
  },
  {
    name: 'export another Service',
    base: () => example('test-clusterset'),
    head: (d) => (d.spec.services!.push({ name: 'api', namespace: 'shop', exportFrom: ['test-cluster-east'] }), d),
    expected: ['[safe] Service shop/api now exported from test-cluster-east'],
    destructive: false,
  },
  {
    name: 'edit a replicated policy',
    base: () => example('test-clusterset'),
    head: (d) => ((d.spec.policies![0]!.spec.priority = 2), d),
    expected: ['[safe] policy strict-namespace-isolation changes (replicated to 2 members)'],
    destructive: false,
  },
  {
    name: 'turn on WireGuard',
    base: () => example('demo-clusterset'),
    head: (d) => ((d.spec.network!.encryption = 'wireGuard'), d),
    expected: ['[disruptive] encryption changes from none to wireGuard in 3 clusters (demo-cluster-leader, demo-cluster-member2, demo-cluster-member3)'],
    destructive: false,
  },
  {
    name: 'change agentConfig: every agent restarts',
    base: () => example('demo-clusterset'),
    head: (d) => ((d.spec.antrea.agentConfig = { enablePrometheusMetrics: false }), d),
    expected: ['[rollout] DaemonSet kube-system/antrea-agent restarts in 3 clusters (demo-cluster-leader, demo-cluster-member2, demo-cluster-member3)'],
    destructive: false,
  },
  {
    name: 'a member installs Antrea elsewhere: the engine prunes its CNI',
    base: () => example('test-clusterset'),
    head: (d) => ((d.spec.clusters[1]!.install = 'multiclusterOnly'), d),
    expected: [
      '[destructive] test-cluster-east no longer gets Antrea from its bundle (install: multiclusterOnly): the engines prune its antrea-agent and antrea-controller',
    ],
    destructive: true,
  },
  {
    name: 'a member goes back to the full installation',
    base: () => ((d) => ((d.spec.clusters[1]!.install = 'multiclusterOnly'), d))(example('test-clusterset')),
    head: (d) => ((d.spec.clusters[1]!.install = 'full'), d),
    expected: ['[rollout] test-cluster-east gets Antrea from its bundle again (install: full): the engines take over antrea-agent and antrea-controller'],
    destructive: false,
  },
  {
    name: 'add a Tier and a policy using it together',
    base: () => example('test-clusterset'),
    head: (d) => (
      (d.spec.tiers ??= []).push({ name: 'fleet-baseline', priority: 60 }),
      d.spec.policies!.push({
        name: 'baseline',
        spec: { priority: 1, tier: 'fleet-baseline', appliedTo: [{ namespaceSelector: {} }], ingress: [{ action: 'Drop', from: [{ namespaceSelector: {} }] }] },
      }),
      d
    ),
    expected: [
      '[rollout] policy baseline is added in Tier fleet-baseline, which this change adds (replicated to 2 members)',
      '[safe] Tier fleet-baseline is added in every member',
      '[rollout] antrea-mc-controller restarts once in 2 members (test-cluster-east, test-cluster-west), after their new Tier set exists',
    ],
    destructive: false,
  },
  {
    // the Tier-restart Job runs the image of the bundles' Jobs: a new image is a new Job, which runs once (#38)
    name: 'a new spec.verify.image with custom Tiers',
    base: () => ((d) => ((d.spec.tiers ??= []).push({ name: 'fleet-baseline', priority: 60 }), d))(example('test-clusterset')),
    head: (d) => ((d.spec.verify = { image: `mirror.example.com/kubectl:1.34.1@sha256:${'e'.repeat(64)}` }), d),
    expected: [
      "[rollout] antrea-mc-controller restarts once in 2 members (test-cluster-east, test-cluster-west), by a new Tier-restart Job (its template changes: spec.verify.image is the Job's image)",
    ],
    destructive: false,
  },
  {
    name: 'a policy in a Tier that already exists',
    base: () => ((d) => ((d.spec.tiers ??= []).push({ name: 'fleet-baseline', priority: 60 }), d))(example('test-clusterset')),
    head: (d) => (
      d.spec.policies!.push({
        name: 'baseline',
        spec: { priority: 1, tier: 'fleet-baseline', appliedTo: [{ namespaceSelector: {} }], ingress: [{ action: 'Drop', from: [{ namespaceSelector: {} }] }] },
      }),
      d
    ),
    expected: ['[safe] policy baseline is added (replicated to 2 members)'],
    destructive: false,
  },
  {
    name: 'upgrade Antrea',
    base: () => ((d) => ((d.spec.antrea.version = perMemberCredentialsMove().from), d))(example('test-clusterset')),
    head: (d) => ((d.spec.antrea.version = perMemberCredentialsMove().to), d),
    expected: [`[rollout] Antrea ${perMemberCredentialsMove().from} → ${perMemberCredentialsMove().to}`],
    destructive: false,
  },
];

describe('plan over pairs of definitions', () => {
  it.each(cases)('$name', async ({ base, head, expected, destructive }) => {
    const before = base();
    const after = head(structuredClone(before));
    const [b, a] = [await revision({ 'cs.yaml': before }), await revision(after ? { 'cs.yaml': after } : {})];
    const plan = planChanges(b, a);
    for (const line of expected) expect(lines(plan)).toContain(line);
    expect(hasDestructive(plan)).toBe(destructive);
    // `plan` builds only the bundles and engine objects whose input hashes differ: the same plan
    const changed = changedOutputs(b.sets, a.sets);
    expect(planChanges({ ...b, outputs: changed.base }, { ...a, outputs: changed.head })).toEqual(plan);
  });

  // the refusal says it all: no second line for the same Gateway (#49 item 11)
  it('a Gateway dropped without retiring it: refused, and reported once', async () => {
    const before = example('demo-clusterset');
    const after = structuredClone(before);
    after.spec.clusters[2]!.gateways = [{ node: 'cl3-node2' }];
    const plan = planChanges(await revision({ 'cs.yaml': before }), await revision({ 'cs.yaml': after }));
    expect(lines(plan).filter((l) => l.includes('cl3-node1'))).toEqual([
      '[refused] Node "cl3-node1" leaves the Gateways of "demo-cluster-member3" but would stay annotated as a Gateway (its Node object is never pruned), and Antrea keeps an annotated, Ready active Gateway',
    ]);
  });

  it("a kubeconfig Secret renamed changes that cluster's Flux Kustomizations only, and the plan of the changed outputs is the same", async () => {
    const before = example('test-clusterset');
    const after = structuredClone(before);
    after.spec.clusters.find((c) => c.clusterID === 'test-cluster-west')!.delivery = { flux: { kubeConfigSecretRef: { name: 'west-admin' } } };
    const [b, a] = [await revision({ 'cs.yaml': before }), await revision({ 'cs.yaml': after })];
    const plan = planChanges(b, a);
    expect(plan.objectChanges.map((c) => `${c.owner} ${c.kind} ${c.name} ${c.change} ${c.paths.join(',')}`)).toEqual(
      ['0-namespaces-crds', '1-rbac-config', '2-webhooks', '3-workloads', '4-resources', 'exports-demo', 'verify'].map(
        (unit) => `flux Kustomization test-clusterset-test-cluster-west-${unit} changed spec.kubeConfig.secretRef.name`,
      ),
    );
    const changed = changedOutputs(b.sets, a.sets);
    // the bundle's slice holds the cluster's delivery settings too: rebuilt, and found unchanged
    expect(changed.head[0]!.bundles.map((x) => x.clusterID)).toEqual(['test-cluster-west']);
    expect(planChanges({ ...b, outputs: changed.base }, { ...a, outputs: changed.head })).toEqual(plan);
  });

  it('an upgrade lists its risks, and its steps in the checklist', async () => {
    const before = example('test-clusterset');
    before.spec.antrea.version = perMemberCredentialsMove().from;
    const after = structuredClone(before);
    after.spec.antrea.version = perMemberCredentialsMove().to;
    const plan = planChanges(await revision({ 'cs.yaml': before }), await revision({ 'cs.yaml': after }));
    const upgrade = plan.changes.find((c) => c.text.startsWith('Antrea'))!;
    expect(upgrade.details?.length).toBeGreaterThan(1);
    expect(upgrade.details?.every((d) => d.startsWith('risk: '))).toBe(true);
    expect(plan.checklist?.map((i) => i.text)).toContainEqual(expect.stringMatching(/^Once every member shows connected again/));
  });

  it("a Tier and a policy using it together: each member's delivery restarts its controller once the Tier exists", async () => {
    const before = example('test-clusterset');
    const after = structuredClone(before);
    (after.spec.tiers ??= []).push({ name: 'fleet-baseline', priority: 60 });
    after.spec.policies!.push({ name: 'baseline', spec: { priority: 1, tier: 'fleet-baseline', appliedTo: [{ namespaceSelector: {} }], ingress: [] } });
    const plan = planChanges(await revision({ 'cs.yaml': before }), await revision({ 'cs.yaml': after }));
    const change = plan.changes.find((c) => c.text.startsWith('policy baseline'))!;
    expect(change.details).toEqual([
      expect.stringMatching(/records ACNPImportFailed and skips the policy until the policy changes again or its antrea-mc-controller restarts$/),
      expect.stringMatching(
        /^each member's bundle restarts antrea-mc-controller once its Tiers exist \(Job antrea-clusterset-tier-restart-[0-9a-f]{10}, in its tier-restart unit after the Tiers' layer/,
      ),
      expect.stringMatching(/^only when the objects are applied without that Job: restart antrea-mc-controller in each member once the Tier exists/),
    ]);
  });

  it('re-ordering keys and reformatting the YAML is no change', async () => {
    const text = readFileSync('clustersets/test-clusterset.yaml', 'utf8');
    const reordered = stringify(parse(text), { sortMapEntries: true, indent: 4 });
    expect(reordered).not.toBe(text);
    const plan = planChanges(await revision({ 'cs.yaml': text }), await revision({ 'cs.yaml': reordered }));
    expect(plan.changes).toEqual([]);
    expect(plan.objectChanges).toEqual([]);
  });

  it('counts objects by cluster and layer', async () => {
    const before = example('demo-clusterset');
    const after = structuredClone(before);
    after.spec.clusters[2]!.gateways = [{ node: 'cl3-node2' }, { node: 'cl3-node1', retired: true }];
    const plan = planChanges(await revision({ 'cs.yaml': before }), await revision({ 'cs.yaml': after }));
    expect(plan.counts).toEqual([
      // the other member's verification reads member3's candidates (its clusterinfo-imported
      // check, verify/gateway-verifications.ts): a new script and Job there too
      { clusterSet: 'demo-clusterset', owner: 'demo-cluster-member2', layers: { verify: { added: 2, changed: 0, removed: 2 } } },
      // the new Gateway Node and the retired one's annotations (4-resources), and the verification
      // that now looks for the new Gateway (verify/: its script and Job are named by what they
      // verify, so each is one added and one removed; its Role reads the Node)
      {
        clusterSet: 'demo-clusterset',
        owner: 'demo-cluster-member3',
        layers: { '4-resources': { added: 1, changed: 1, removed: 0 }, verify: { added: 2, changed: 1, removed: 2 } },
      },
    ]);
  });
});
