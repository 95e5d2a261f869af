import { unparsed } from '../helpers/shell-syntax';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { validateDefinitions } from '../../src/pipeline/pipeline';
import type { Diagnostic } from '../../src/diagnostics/diagnostic';
import type { ClusterSetInput } from '../../src/model/clusterset';
import { effectiveClusters } from '../../src/model/effective';
import { changedOutputs } from '../../src/plan/changed-outputs';
import { planChanges } from '../../src/plan/plan-changes';
import type { CompiledRevision, Plan } from '../../src/plan/plan';
import { renderPlan } from '../../src/plan/render-plan';
import { upgradeFromMissing } from '../../src/plan/upgrade-from-missing';
import { clusterSetSources } from '../../src/synth/synth-clusterset';
import { gossipEncryptionMove, perMemberCredentialsMove, shiftMinor } from '../helpers/releases';

const example = (name: string): ClusterSetInput => parse(readFileSync(`clustersets/${name}.yaml`, 'utf8')) as ClusterSetInput;
const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

/** One revision as `plan` builds it: definitions checked, only the outputs that differ built. */
async function revision(definition: ClusterSetInput) {
  const dir = mkdtempSync(join(tmpdir(), 'checklist-test-'));
  dirs.push(dir);
  mkdirSync(join(dir, 'clustersets'));
  const file = join(dir, 'clustersets', 'cs.yaml');
  writeFileSync(file, stringify(definition));
  const result = await validateDefinitions([file]);
  expect(result.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  return result.parsed;
}

/**
 * Plans by their two definitions: the goldens, the shell check and the tests on what the checklist
 * says plan the same pairs again (each caller gets its own copy).
 */
const plans = new Map<string, Promise<Plan>>();
async function planOf(before: ClusterSetInput, after: ClusterSetInput): Promise<Plan> {
  const key = JSON.stringify([before, after]);
  if (!plans.has(key)) plans.set(key, planned(before, after));
  return structuredClone(await plans.get(key)!);
}

async function planned(before: ClusterSetInput, after: ClusterSetInput): Promise<Plan> {
  const [b, a] = [await revision(before), await revision(after)];
  const outputs = changedOutputs(b.map(clusterSetSources), a.map(clusterSetSources));
  const definitions = (parsed: typeof b): CompiledRevision['definitions'] =>
    new Map(parsed.map((p) => [p.definition.metadata.name, { definition: p.definition, file: 'clustersets/cs.yaml' }]));
  return planChanges({ outputs: outputs.base, definitions: definitions(b) }, { outputs: outputs.head, definitions: definitions(a) });
}

const edit = (name: string, change: (d: ClusterSetInput) => void): [ClusterSetInput, ClusterSetInput] => {
  const before = example(name);
  const after = structuredClone(before);
  change(after);
  return [before, after];
};

/** test-clusterset where west exports demo/nginx alone and every member shop/api */
const westExports = (): ClusterSetInput => {
  const d = example('test-clusterset');
  d.spec.services!.push({ name: 'api', namespace: 'shop', exportFrom: '*' });
  return d;
};
const withdrawing = (d: ClusterSetInput, id: string): ClusterSetInput => {
  const out = structuredClone(d);
  out.spec.clusters = out.spec.clusters.map((c) => (c.clusterID === id ? { ...c, withdraw: true } : c));
  return out;
};
const without = (d: ClusterSetInput, id: string): ClusterSetInput => {
  const out = structuredClone(d);
  out.spec.clusters = out.spec.clusters.filter((c) => c.clusterID !== id);
  return out;
};

/**
 * join, leave and upgrade for the two delivery engines of the examples: Argo CD (demo) and a hub
 * Flux (test). A member leaves in two merges (withdraw-*, then leave-after-withdraw-*: also as
 * JSON) or at once (leave-*: member-removed-without-withdraw and the manual fallback).
 */
const cases: { name: string; pair: () => [ClusterSetInput, ClusterSetInput]; json?: boolean }[] = [
  {
    name: 'join-argocd',
    pair: () =>
      edit('demo-clusterset', (d) => {
        d.spec.services = [{ name: 'nginx', namespace: 'demo', exportFrom: '*' }];
        d.spec.clusters.push({
          clusterID: 'demo-cluster-member4',
          podCIDRs: ['10.244.48.0/20'],
          serviceCIDR: '10.96.48.0/20',
          gateways: [{ node: 'cl4-node1' }],
          delivery: { argocd: { name: 'demo-cluster-member4' } },
        });
      }),
  },
  {
    name: 'join-flux',
    pair: () =>
      edit('test-clusterset', (d) =>
        d.spec.clusters.push({
          clusterID: 'test-cluster-south',
          serviceCIDR: '10.128.0.0/16',
          gateways: [{ node: 'south-1' }],
          delivery: { flux: { kubeConfigSecretRef: { name: 'south-kubeconfig' } } },
        }),
      ),
  },
  {
    // west exports demo/nginx alone: the change drops that export with the member
    name: 'leave-flux',
    pair: () => {
      const before = example('test-clusterset');
      before.spec.services!.push({ name: 'api', namespace: 'shop', exportFrom: '*' });
      const after = structuredClone(before);
      after.spec.clusters = after.spec.clusters.filter((c) => c.clusterID !== 'test-cluster-west');
      after.spec.services = after.spec.services!.filter((s) => s.name !== 'nginx');
      return [before, after];
    },
  },
  {
    name: 'leave-argocd',
    pair: () => edit('demo-clusterset', (d) => (d.spec.clusters = d.spec.clusters.filter((c) => c.clusterID !== 'demo-cluster-member3'))),
  },
  { name: 'withdraw-flux', json: true, pair: () => [westExports(), withdrawing(westExports(), 'test-cluster-west')] },
  {
    name: 'leave-after-withdraw-flux',
    json: true,
    pair: () => {
      // demo/nginx, exported by west alone, leaves with it (its exports stopped with the withdrawal)
      const after = without(westExports(), 'test-cluster-west');
      after.spec.services = after.spec.services!.filter((s) => s.name !== 'nginx');
      return [withdrawing(westExports(), 'test-cluster-west'), after];
    },
  },
  { name: 'withdraw-argocd', json: true, pair: () => [example('demo-clusterset'), withdrawing(example('demo-clusterset'), 'demo-cluster-member3')] },
  {
    name: 'leave-after-withdraw-argocd',
    json: true,
    pair: () => [withdrawing(example('demo-clusterset'), 'demo-cluster-member3'), without(example('demo-clusterset'), 'demo-cluster-member3')],
  },
  {
    name: 'upgrade-argocd',
    pair: () => {
      const before = example('demo-clusterset');
      const { from, to } = gossipEncryptionMove();
      before.spec.antrea.version = from;
      const after = structuredClone(before);
      after.spec.antrea = { version: to, agentConfig: { featureGates: { Egress: false, ServiceExternalIP: false } } };
      before.spec.antrea.agentConfig = after.spec.antrea.agentConfig;
      return [before, after];
    },
  },
  {
    name: 'upgrade-flux',
    pair: () => {
      const before = example('test-clusterset');
      const { from, to } = perMemberCredentialsMove();
      before.spec.antrea.version = from;
      const after = structuredClone(before);
      after.spec.antrea = { version: to, upgradeFrom: from };
      return [before, after];
    },
  },
];

const named = (name: string) => cases.find((c) => c.name === name)!;

describe('the plan checklist (golden plans)', () => {
  it.each(cases)('$name: text and markdown', async ({ name, pair, json: golden }) => {
    const plan = await planOf(...pair());
    expect(plan.checklist?.length).toBeGreaterThan(0);
    const header = { base: 'main', head: 'work tree' };
    await expect(renderPlan('text', plan, header)).toMatchFileSnapshot(`../fixtures/plan/checklist/${name}.txt`);
    await expect(renderPlan('markdown', plan, header)).toMatchFileSnapshot(`../fixtures/plan/checklist/${name}.md`);
    const json = JSON.parse(renderPlan('json', plan, header)) as { checklist: unknown[] };
    expect(json.checklist).toEqual(plan.checklist);
    if (golden) await expect(renderPlan('json', plan, header)).toMatchFileSnapshot(`../fixtures/plan/checklist/${name}.json`);
  });
});

describe('what the checklist says, and leaves out', () => {
  it('a joining member with tokenSecret manual: the token copy after merging, the Argo CD destination before', async () => {
    const plan = await planOf(...named('join-argocd').pair());
    const items = plan.checklist!.map((i) => `${i.when}: ${i.text}`);
    expect(items).toContainEqual(expect.stringMatching(/^before merging: Register `demo-cluster-member4` in Argo CD as cluster `demo-cluster-member4`/));
    expect(items).toContainEqual(
      expect.stringMatching(/^after merging: Once the leader has applied the credentials of `demo-cluster-member4`, copy its token/),
    );
    const copy = plan.checklist!.find((i) => i.text.includes('copy its token'))!;
    expect(copy.commands!.join('\n')).toContain('kubectl --context demo-cluster-member4 apply --server-side');
  });

  // Argo CD's built-in destination is the cluster Argo CD runs in: registered already, by name or server (#49 item 10)
  it.each([{ name: 'in-cluster' }, { server: 'https://kubernetes.default.svc/' }])(
    "a member joining at Argo CD's own cluster (%o) registers nothing",
    async (argocd) => {
      const plan = await planOf(
        ...edit('demo-clusterset', (d) =>
          d.spec.clusters.push({
            clusterID: 'demo-cluster-member4',
            podCIDRs: ['10.244.48.0/20'],
            serviceCIDR: '10.96.48.0/20',
            gateways: [{ node: 'cl4-node1' }],
            delivery: { argocd },
          }),
        ),
      );
      const text = plan.checklist!.map((i) => [i.text, ...(i.commands ?? [])].join('\n')).join('\n');
      expect(text).toContain('demo-cluster-member4');
      expect(text).not.toContain('argocd cluster add');
      expect(text).not.toMatch(/Register `demo-cluster-member4`/);
    },
  );

  // what the plan's steps say to do before merging is a before-merging task, too (#49 item 11)
  it.each([
    ['nobody (manual)', undefined],
    ['one Flux per cluster', { sourceRef: { kind: 'GitRepository' as const, name: 'fleet', namespace: 'flux-system' } }],
  ])('an engine switch from Argo CD to %s keeps the before-merging step in the checklist', async (_, flux) => {
    const plan = await planOf(
      ...edit('demo-clusterset', (d) => {
        delete d.spec.delivery!.argocd;
        for (const c of d.spec.clusters) delete c.delivery;
        if (flux) d.spec.delivery!.flux = flux;
      }),
    );
    // every before-merging step of the plan is an item of the checklist: the app-of-apps warning
    // of Argo CD's removal (#49 item 4) and the new engine's preparation
    const before = plan.changes.flatMap((c) => c.steps ?? []).filter((step) => step.startsWith('before merging'));
    expect(before).toHaveLength(2);
    const items = plan.checklist!.filter((i) => i.when === 'before merging');
    expect(items).toHaveLength(before.length);
    expect(items.at(-1)!.text).toMatch(
      flux ? /^Prepare one Flux per cluster as `dist\/demo-clusterset\/README\.md` says/ : /^Decide who applies the bundles from now on/,
    );
  });

  it("an upgrade with upgradeFrom set points to the README's section of its steps", async () => {
    const plan = await planOf(...named('upgrade-flux').pair());
    const { from } = perMemberCredentialsMove();
    const all = [...plan.changes.flatMap((c) => [c.text, ...(c.details ?? [])]), ...plan.checklist!.map((i) => i.text)].join('\n');
    expect(all).toMatch(new RegExp(`dist/test-clusterset/README\\.md.*"Upgrading from ${from.replaceAll('.', '\\.')}"`));
  });

  // a folded checklist is easily missed: what must happen before the merge shows above the fold (#49 item 11)
  it('the Markdown plan counts the before-merging steps outside the fold', async () => {
    const plan = await planOf(...named('join-argocd').pair());
    const before = plan.checklist!.filter((i) => i.when === 'before merging');
    expect(before).toHaveLength(2);
    const unfolded = renderPlan('markdown', plan, { base: 'main', head: 'work tree' }).replace(/<details>[\s\S]*?<\/details>/g, '');
    expect(unfolded).toContain('**2 steps before merging** in the checklist of `demo-clusterset`');
    // and a plan without any says nothing there
    const after = await planOf(...named('leave-after-withdraw-flux').pair());
    expect(after.checklist!.filter((i) => i.when === 'before merging')).toEqual([]);
    expect(renderPlan('markdown', after, { base: 'main', head: 'work tree' })).not.toMatch(/before merging\*\*/);
  });

  it('a member leaving: exports withdrawn on the leader, clean-up on the member, its Services stop being imported', async () => {
    const plan = await planOf(...named('leave-flux').pair());
    const text = plan.checklist!.map((i) => [i.text, ...(i.commands ?? [])].join('\n')).join('\n');
    expect(text).toContain('`demo/nginx`, exported by `test-cluster-west` alone, disappears from every member');
    expect(text).toContain('kubectl --context test-cluster-north -n antrea-multicluster delete resourceexport -l sourceClusterID=test-cluster-west');
    expect(text).toContain('kubectl --context test-cluster-west -n kube-system delete clusterset test-clusterset --ignore-not-found');
    expect(text).toContain('kubectl --context test-cluster-west annotate node test-cluster-west-node-1 multicluster.antrea.io/gateway-');
    // Flux: prune off before the orphan goes, or Flux uninstalls Antrea
    expect(text.indexOf('"spec":{"prune":false}')).toBeLessThan(text.indexOf('delete kustomization test-clusterset-test-cluster-west-0-namespaces-crds'));
  });

  it('a Service in a Namespace no multi-cluster Service used: that Namespace in every member that stays, before it can import', async () => {
    const [before, after] = edit('test-clusterset', (d) => d.spec.services!.push({ name: 'api', namespace: 'shop', exportFrom: ['test-cluster-east'] }));
    const items = (await planOf(before, after)).checklist!.filter((i) => i.text.includes('`shop`'));
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({ when: 'after merging' });
    const members = effectiveClusters((await revision(after))[0]!.definition)
      .filter((m) => m.isMember)
      .map((m) => m.clusterID);
    expect(members.length).toBeGreaterThan(1);
    expect(items[0]!.commands).toEqual(
      members.map((id) => `kubectl --context ${id} create namespace shop --dry-run=client -o yaml | kubectl --context ${id} apply -f -`),
    );
    // a Namespace already in use gets no item: nginx's demo is there since the base
    const [b2, a2] = edit('test-clusterset', (d) => d.spec.services!.push({ name: 'db', namespace: 'demo', exportFrom: '*' }));
    expect((await planOf(b2, a2)).checklist!.filter((i) => i.text.includes('Namespace'))).toEqual([]);
  });

  it('an upgrade: no step that the change already does, no gossip risk where the gates are off, every command with its context', async () => {
    const plan = await planOf(...named('upgrade-argocd').pair());
    const all = JSON.stringify([plan.changes, plan.checklist]);
    expect(all).not.toMatch(/Change spec\.antrea\.version/);
    expect(all).not.toMatch(/gossip/);
    expect(all).not.toMatch(/Leader cluster first/); // Argo CD's RollingSync orders it
    const commands = plan.checklist!.flatMap((i) => i.commands ?? []);
    expect(commands.length).toBeGreaterThan(0);
    for (const c of commands.filter((x) => /^(kubectl|for )/.test(x))) expect(c).toMatch(/^kubectl --context |kubectl --context "\$context"/);
    expect(plan.checklist!.map((i) => i.text)).toContainEqual(expect.stringMatching(/^Set `spec\.antrea\.upgradeFrom: v2\.6\.3` in this change/));
    // with the gates at their defaults the risk stays, as a condition
    const flux = await planOf(...named('upgrade-flux').pair());
    expect(JSON.stringify(flux.changes)).toMatch(/antrea-memberlist-keys Secret. Rolled out with both verify options on/);
    expect(flux.checklist!.map((i) => i.text)).not.toContainEqual(expect.stringMatching(/^Set `spec\.antrea\.upgradeFrom/));
  });

  it('one Flux per cluster: a joining member needs a Flux of its own, and an upgrade reaches the leader first by hand', async () => {
    const join = await planOf(
      ...edit('helm-clusterset', (d) =>
        d.spec.clusters.push({ clusterID: 'onprem-south', serviceCIDR: '10.98.0.0/16', podCIDRs: ['10.247.0.0/16'], gateways: [{ node: 'worker-s' }] }),
      ),
    );
    expect(join.checklist!.map((i) => `${i.when}: ${i.text}`)).toContainEqual(
      expect.stringMatching(/^before merging: Bootstrap Flux in `onprem-south` .*`dist\/helm-clusterset\/flux-per-cluster\/onprem-south\/`/),
    );
    const before = example('helm-clusterset');
    const { from, to } = perMemberCredentialsMove();
    before.spec.antrea.version = from;
    const after = structuredClone(before);
    after.spec.antrea = { version: to, upgradeFrom: from };
    const upgrade = (await planOf(before, after)).checklist!;
    // nothing orders Fluxes of different clusters: the leader-first step stays, with the reconcile that does it
    expect(upgrade.map((i) => i.text)).toContainEqual(expect.stringMatching(/Leader cluster first/));
    const reconcile = upgrade.find((i) => i.text.startsWith('One Flux per cluster: reconcile `mgmt` first'));
    expect(reconcile).toMatchObject({
      when: 'after merging',
      commands: ['flux --context mgmt -n flux-system reconcile kustomization helm-clusterset-mgmt-4-resources --with-source'],
    });
    // a hub Flux orders the leader first itself (dependsOn): neither item
    const hub = (await planOf(...named('upgrade-flux').pair())).checklist!.map((i) => i.text);
    expect(hub).not.toContainEqual(expect.stringMatching(/Leader cluster first|One Flux per cluster/));
  });

  it('every command block parses as shell', async () => {
    const blocks: string[] = [];
    for (const { pair } of cases) for (const item of (await planOf(...pair())).checklist!) if (item.commands) blocks.push(item.commands.join('\n'));
    expect(blocks.length).toBeGreaterThan(cases.length);
    // each block parsed on its own; the blocks that do not parse are printed back
    expect(unparsed('bash', blocks)).toEqual([]);
  });
});

describe('upgrade-from-missing (plan only)', () => {
  const parsed = async (antrea: ClusterSetInput['spec']['antrea']) => {
    const d = example('demo-clusterset');
    d.spec.antrea = antrea;
    return revision(d);
  };
  const { from, to } = perMemberCredentialsMove();
  const stale = shiftMinor(from, -1); // what the clusters ran before the base
  it.each([
    ['no upgradeFrom', { version: to }, ['spec', 'antrea', 'version'], 7],
    ['a stale upgradeFrom', { version: to, upgradeFrom: stale }, ['spec', 'antrea', 'upgradeFrom'], 8],
  ])('%s: a warning at the line, with the release to set', async (_, antrea, path, line) => {
    const diagnostics: Diagnostic[] = [];
    upgradeFromMissing(await parsed({ version: from }), await parsed(antrea), diagnostics);
    expect(diagnostics.map((d) => ({ code: d.code, severity: d.severity, path: d.path, line: d.line }))).toEqual([
      { code: 'upgrade-from-missing', severity: 'warning', path, line },
    ]);
    expect(diagnostics[0]!.hint).toContain(`upgradeFrom: ${from}`);
  });
  it.each([
    ['upgradeFrom names the base', { version: to, upgradeFrom: from }],
    ['no release change', { version: from }],
  ])('%s: nothing', async (_, antrea) => {
    const diagnostics: Diagnostic[] = [];
    upgradeFromMissing(await parsed({ version: from }), await parsed(antrea), diagnostics);
    expect(diagnostics).toEqual([]);
  });
});

describe('the markdown checklist renders as GitHub renders it (marked, GFM)', () => {
  it.each(cases.map((c) => c.name))('%s: task items, identifiers as code, command blocks inside their items', async (name) => {
    const { marked } = await import('marked');
    const md = readFileSync(`test/fixtures/plan/checklist/${name}.md`, 'utf8');
    const html = await marked.parse(md, { gfm: true });
    const items = md.split('\n').filter((l) => l.startsWith('- [ ] ')).length;
    expect(items).toBeGreaterThan(0);
    expect(html.match(/<li>(<p>)?<input disabled="" type="checkbox">/g)?.length).toBe(items);
    expect(html).toMatch(/<code>[a-z0-9-]+<\/code>/);
    // a command block belongs to the item above it: the <pre> comes before that item's </li>
    // (the diagram's mermaid block is not a command: it opens the ClusterSet's details)
    for (const pre of html.matchAll(/<pre><code(?! class="language-mermaid")/g))
      expect(html.lastIndexOf('<li>', pre.index)).toBeGreaterThan(html.lastIndexOf('</li>', pre.index));
    // nothing escaped that did not need it
    expect(md).not.toMatch(/\\[().!{}]/);
  });
});
