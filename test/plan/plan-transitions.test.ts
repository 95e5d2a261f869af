import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { planChanges } from '../../src/plan/plan-changes';
import { hasRefused } from '../../src/plan/plan';
import { renderPlan } from '../../src/plan/render-plan';
import { runCli } from '../helpers/run-cli';
import { example, lines, revision, type Definition } from '../helpers/plan-revision';

const withTier = (d: Definition, priority = 60) => ((d.spec.tiers ??= []).push({ name: 'fleet-ops', priority }), d);
const policyIn = (tier: string) => ({ name: 'deny-all', spec: { priority: 1, tier, appliedTo: [{ namespaceSelector: {} }], ingress: [] } });

/** Changes the clusters refuse: the plan says `refused` with the procedure; and what it accepts stays accepted. */
const cases: { name: string; base: () => Definition; head: (d: Definition) => Definition; refused: string[] }[] = [
  {
    name: "a Tier's priority changes",
    base: () => withTier(example('test-clusterset')),
    head: (d) => ((d.spec.tiers![0]!.priority = 40), d),
    refused: ['tier-priority-immutable'],
  },
  {
    name: 'a Tier is removed with its policy',
    base: () => ((d) => (d.spec.policies!.push(policyIn('fleet-ops')), d))(withTier(example('test-clusterset'))),
    head: (d) => ((d.spec.tiers = []), (d.spec.policies = d.spec.policies!.filter((p) => p.name !== 'deny-all')), d),
    refused: ['tier-removed-in-use'],
  },
  {
    name: 'a Tier is removed after its policies',
    base: () => withTier(example('test-clusterset')),
    head: (d) => ((d.spec.tiers = []), d),
    refused: [],
  },
  {
    name: 'the ClusterSet is renamed',
    base: () => example('test-clusterset'),
    head: (d) => ((d.metadata.name = 'prod-clusterset'), d),
    refused: ['clusterset-rename'],
  },
  {
    name: 'the leader moves to a member',
    base: () => example('demo-clusterset'),
    head: (d) => ((d.spec.leader.clusterID = 'demo-cluster-member2'), d),
    refused: ['leader-move'],
  },
  {
    name: 'a Gateway moves without retiring the old Node',
    base: () => example('demo-clusterset'),
    head: (d) => ((d.spec.clusters[2]!.gateways = [{ node: 'cl3-node2' }]), d),
    refused: ['gateway-removed'],
  },
  {
    name: 'a Gateway moves and the old Node is retired',
    base: () => example('demo-clusterset'),
    head: (d) => ((d.spec.clusters[2]!.gateways = [{ node: 'cl3-node2' }, { node: 'cl3-node1', retired: true }]), d),
    refused: [],
  },
];

describe('plan: changes the clusters refuse', () => {
  it.each(cases)('$name', async ({ base, head, refused }) => {
    const before = base();
    const plan = planChanges(await revision({ 'cs.yaml': before }), await revision({ 'cs.yaml': head(structuredClone(before)) }));
    const found = plan.changes.filter((c) => c.impact === 'refused');
    expect(found.map((c) => c.code)).toEqual(refused);
    expect(hasRefused(plan)).toBe(refused.length > 0);
    for (const c of found) expect(c.steps?.length).toBeGreaterThan(1);
    // each format says it: the text lists the procedure; json carries the steps; markdown counts a refused column
    if (found.length > 0) {
      const text = renderPlan('text', plan, { base: 'b', head: 'h' });
      expect(text).toMatch(/\[refused\] /);
      expect(text).toMatch(/the supported procedure:\n {8}1\. /);
      expect(text).toMatch(/changes?: 1 refused, /);
      expect((JSON.parse(renderPlan('json', plan, { base: 'b', head: 'h' })) as { summary: { refused: number } }).summary.refused).toBe(1);
      expect(renderPlan('markdown', plan, { base: 'b', head: 'h' })).toContain('| ClusterSet | refused | destructive | disruptive | rollout | safe |');
      expect(renderPlan('github', plan, { base: 'b', head: 'h' })).toMatch(/^::error title=clusterset plan \(refused\)::/m);
    } else expect(lines(plan).join('\n')).not.toContain('[refused]');
  });

  it('a member that leaves: the change says what happens without the steps (up to 36 h); the checklist holds the order that withdraws it at once, once', async () => {
    const before = example('test-clusterset');
    const after = structuredClone(before);
    after.spec.clusters = after.spec.clusters.filter((c) => c.clusterID !== 'test-cluster-east');
    const plan = planChanges(await revision({ 'cs.yaml': before }), await revision({ 'cs.yaml': after }));
    const leaves = plan.changes.find((c) => c.text.startsWith('member test-cluster-east leaves'))!;
    expect(leaves.impact).toBe('destructive');
    expect(leaves.leaving).toEqual({ clusterID: 'test-cluster-east', member: true });
    expect(leaves.details?.join('\n')).toMatch(/up to 36 h/);
    expect(leaves.steps).toBeUndefined();
    const steps = plan.checklist!.filter((i) => i.leaving === 'test-cluster-east').map((i) => [`${i.when}: ${i.text}`, ...(i.commands ?? [])]);
    expect(steps.slice(0, 3)).toEqual([
      [
        expect.stringMatching(/^before merging: Suspend the delivery of `test-cluster-east`/),
        'flux --context "$FLUX_CONTEXT" -n flux-system suspend kustomization test-clusterset-test-cluster-east-4-resources',
      ],
      [
        expect.stringMatching(/^before merging: In `test-cluster-east`, delete its ClusterSet while its token still works/),
        'kubectl --context test-cluster-east -n kube-system delete clusterset test-clusterset',
        'kubectl --context test-cluster-north -n antrea-multicluster get memberclusterannounce member-announce-from-test-cluster-east --ignore-not-found',
      ],
      [
        expect.stringMatching(/^after merging: If `test-cluster-east` could not withdraw before the merge/),
        'kubectl --context test-cluster-north -n antrea-multicluster delete memberclusterannounce member-announce-from-test-cluster-east --ignore-not-found',
        'kubectl --context test-cluster-north -n antrea-multicluster delete resourceexport -l sourceClusterID=test-cluster-east',
      ],
    ]);
    const text = renderPlan('text', plan, { base: 'b', head: 'h' });
    expect(text).not.toContain('steps, in order');
    expect(text.match(/delete clusterset test-clusterset$/gm)).toHaveLength(1);
    // removed without withdrawing first: a warning with the two merges, not a refusal
    expect(plan.findings?.map((f) => [f.code, f.severity])).toEqual([['member-removed-without-withdraw', 'warning']]);
    expect(plan.changes.some((c) => c.impact === 'refused')).toBe(false);
  });

  it('a member leaves in two merges: withdraw (its ClusterSet pruned, credentials kept), then the removal with the clean-up alone', async () => {
    const base = example('test-clusterset');
    const marked = structuredClone(base);
    marked.spec.clusters = marked.spec.clusters.map((c) => (c.clusterID === 'test-cluster-east' ? { ...c, withdraw: true } : c));
    const removed = structuredClone(base);
    removed.spec.clusters = removed.spec.clusters.filter((c) => c.clusterID !== 'test-cluster-east');
    const first = planChanges(await revision({ 'cs.yaml': base }), await revision({ 'cs.yaml': marked }));
    expect(first.findings).toEqual([]);
    const withdraws = first.changes.find((c) => c.text.startsWith('member test-cluster-east withdraws'))!;
    expect(withdraws.impact).toBe('disruptive');
    // the engine prunes the member's ClusterSet; the leader keeps its credentials
    const gone = first.objectChanges.filter((c) => c.change === 'removed').map((c) => `${c.owner} ${c.kind}`);
    expect(gone).toContain('test-cluster-east ClusterSet');
    expect(gone.filter((g) => g.startsWith('test-cluster-north'))).toEqual([]);
    expect(first.checklist!.filter((i) => i.leaving === 'test-cluster-east').map((i) => i.when)).toEqual(['after merging']);
    const second = planChanges(await revision({ 'cs.yaml': marked }), await revision({ 'cs.yaml': removed }));
    expect(second.findings).toEqual([]);
    const steps = second.checklist!.filter((i) => i.leaving === 'test-cluster-east');
    expect(steps.map((i) => i.when)).toEqual(['after merging', 'after merging']);
    expect(JSON.stringify(steps)).not.toMatch(/suspend|--sync-policy none/);
    expect(
      second.objectChanges
        .filter((c) => c.change === 'removed' && c.owner === 'test-cluster-north')
        .map((c) => c.kind)
        .sort(),
    ).toEqual(['RoleBinding', 'Secret', 'ServiceAccount']);
    // withdrawn, then taken back: its ClusterSet returns and it rejoins
    const back = planChanges(await revision({ 'cs.yaml': marked }), await revision({ 'cs.yaml': base }));
    expect(lines(back)).toContain('[safe] member test-cluster-east no longer withdraws: its bundle carries its ClusterSet again and it rejoins the leader');
    expect(back.checklist!.filter((i) => i.leaving === 'test-cluster-east')).toEqual([]);
  });

  it("a member's token Secret renamed: disruptive until the new Secret exists, with the order", async () => {
    const before = example('test-clusterset');
    const after = structuredClone(before);
    after.spec.clusters.find((c) => c.clusterID === 'test-cluster-east')!.tokenSecret = { source: 'manual', name: 'east-token-2' };
    const plan = planChanges(await revision({ 'cs.yaml': before }), await revision({ 'cs.yaml': after }));
    const change = plan.changes.find((c) => c.text.includes('east-token-2'))!;
    expect(change.impact).toBe('disruptive');
    expect(change.text).toBe('test-cluster-east reads its leader token from kube-system/east-token-2 instead of kube-system/test-cluster-east-leader-token');
    expect(change.steps?.[0]).toMatch(/^before merging, create the Secret east-token-2 in kube-system of test-cluster-east/);
  });

  it('the leader Namespace changes: members pick it up only when their controller restarts, and the plan says so', async () => {
    const before = example('test-clusterset');
    const after = structuredClone(before);
    after.spec.leader.namespace = 'mc-leader';
    const plan = planChanges(await revision({ 'cs.yaml': before }), await revision({ 'cs.yaml': after }));
    const change = plan.changes.find((c) => c.text.startsWith('the leader Namespace changes'))!;
    expect(change.impact).toBe('disruptive');
    expect(change.steps?.join('\n')).toMatch(/rollout restart deployment antrea-mc-controller/);
    expect(change.steps?.join('\n')).toMatch(/token/);
  });

  it('the CLI exits 1 and points at the line of the head that the clusters refuse', async () => {
    const repo = mkdtempSync(join(tmpdir(), 'plan-refused-'));
    try {
      const git = (...args: string[]) => execFileSync('git', ['-c', 'user.email=t@example.com', '-c', 'user.name=t', ...args], { cwd: repo, stdio: 'pipe' });
      mkdirSync(join(repo, 'clustersets'));
      cpSync('clustersets/demo-clusterset.yaml', join(repo, 'clustersets/demo-clusterset.yaml'));
      git('init', '-q', '-b', 'main');
      git('add', '.');
      git('commit', '-qm', 'base');
      const file = join(repo, 'clustersets/demo-clusterset.yaml');
      writeFileSync(file, readFileSync(file, 'utf8').replace('clusterID: demo-cluster-leader\n    server', 'clusterID: demo-cluster-member2\n    server'));
      const r = await runCli(['plan', '--base', 'HEAD'], { cwd: repo });
      expect(r.status).toBe(1);
      expect(r.stderr).toMatch(/^clustersets\/demo-clusterset\.yaml:13:16: error leader-move: /m);
      expect(r.stderr).toMatch(/^HEAD:clustersets\/demo-clusterset\.yaml:13:16: note: /m);
      expect(r.stdout).toContain('[refused] the leader moves from "demo-cluster-leader" to "demo-cluster-member2"');
    } finally {
      rmSync(repo, { recursive: true, force: true });
    }
  });
});
