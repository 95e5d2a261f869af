import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parse, stringify } from 'yaml';
import { fastYaml } from '../../src/yaml/fast-yaml';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { runLivePlan } from '../../src/live/live-plan';
import { runningClusterSet } from '../helpers/live-dumps';
import { runCli } from '../helpers/run-cli';

// plan --live's Connections section (issue #50 items 2 and 4): the members' dumps hold what runs
// (kubectl's Namespaces, Pods, Services, NetworkPolicies), read by the inventory's reader. What
// runs is clustersets/test-clusterset.yaml without its policy; the head adds
// strict-namespace-isolation. The Pods are examples/inventory/test-clusterset.yaml's, so with the
// dumps stating no NetworkPolicy that isolates anything, the section is the one `plan --inventory`
// prints for that inventory (test/policy/plan-connections.test.ts: inside members closes 13).

const tmp = mkdtempSync(join(process.env.CLUSTERSET_TEST_TMPDIR ?? '/tmp', 'live-connections-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const HEAD = 'clustersets/test-clusterset.yaml';
const MEMBERS = ['test-cluster-east', 'test-cluster-west'];

type Obj = Record<string, unknown>;
interface InvNamespace {
  name: string;
  labels?: Record<string, string>;
  pods?: { name: string; labels: Record<string, string>; ip: string }[];
  services?: { name: string; selector: Record<string, string>; ports: Obj[]; clusterIP: string }[];
}
const INVENTORY = parse(readFileSync('examples/inventory/test-clusterset.yaml', 'utf8')) as { clusters: { clusterID: string; namespaces: InvNamespace[] }[] };

/** The inventory's cluster as kubectl prints it: Namespaces, Pods, Services (what `kind` selects of them). */
function kubectlItems(clusterID: string, kinds: ReadonlySet<string>): Obj[] {
  const c = INVENTORY.clusters.find((x) => x.clusterID === clusterID)!;
  return c.namespaces.flatMap((n) => [
    ...(kinds.has('Namespace')
      ? [{ apiVersion: 'v1', kind: 'Namespace', metadata: { name: n.name, labels: n.labels ?? {} }, status: { phase: 'Active' } }]
      : []),
    ...(kinds.has('Pod')
      ? (n.pods ?? []).map((p) => ({
          apiVersion: 'v1',
          kind: 'Pod',
          metadata: { name: p.name, namespace: n.name, labels: p.labels },
          spec: { containers: [{ name: 'c', image: 'x' }] },
          status: { phase: 'Running', podIP: p.ip, podIPs: [{ ip: p.ip }] },
        }))
      : []),
    ...(n.services ?? []).map((s) => ({
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: s.name, namespace: n.name },
      spec: { selector: s.selector, ports: s.ports, clusterIP: s.clusterIP, type: 'ClusterIP' },
    })),
  ]);
}

const networkPolicy = (namespace: string, name: string, spec: Obj): Obj => ({
  apiVersion: 'networking.k8s.io/v1',
  kind: 'NetworkPolicy',
  metadata: { name, namespace },
  spec,
});
/** Isolates nothing: its podSelector selects no Pod of the inventory. */
const INERT = networkPolicy('demo', 'inert', { podSelector: { matchLabels: { app: 'nothing' } }, policyTypes: ['Ingress'] });
/** Isolates kube-system's Pods for ingress and allows nothing: CoreDNS is dropped by Kubernetes before the change. */
const ISOLATE_DNS = networkPolicy('kube-system', 'deny-all', { podSelector: {}, policyTypes: ['Ingress'] });

let running: Map<string, string>;
const parsedRunning: Record<string, { items: Obj[] }> = {};
beforeAll(async () => {
  const head = readFileSync(HEAD, 'utf8');
  const base = join(tmp, 'running.yaml');
  writeFileSync(base, head.slice(0, head.indexOf('  policies:')) + head.slice(head.indexOf('  # the leader')));
  running = (await runningClusterSet(base)).dumps;
});

/** The running ClusterSet's dumps, the members' with what runs in them; a directory of dumps. */
function dumps(name: string, kinds: ReadonlySet<string>, policies: readonly Obj[]): string {
  const dir = join(tmp, name);
  mkdirSync(dir);
  for (const [id, text] of running) {
    // the leader's dump as it runs; a member's parsed once, a copy for each folder
    if (!MEMBERS.includes(id)) {
      writeFileSync(join(dir, `${id}.yaml`), text);
      continue;
    }
    const list = structuredClone((parsedRunning[id] ??= parse(text) as { items: Obj[] }));
    const extra = kubectlItems(id, kinds);
    const named = (o: Obj) => `${o.kind as string} ${((o.metadata as Obj).namespace as string | undefined) ?? ''} ${(o.metadata as Obj).name as string}`;
    const have = new Set(list.items.map(named));
    list.items.push(...extra.filter((o) => !have.has(named(o))), ...(kinds.has('NetworkPolicy') ? policies : []));
    writeFileSync(join(dir, `${id}.yaml`), fastYaml(list, 'as-is') ?? stringify(list, { lineWidth: 0 }));
  }
  return dir;
}

const ALL = new Set(['Namespace', 'Pod', 'NetworkPolicy']);
const DROP = 'ingress: antrea-mc-strict-namespace-isolation · securityops · 1 · ingress[1] · Drop';
const KUBE_DNS_FROM_SHOP = { from: 'test-cluster-east/shop/web', to: 'test-cluster-east/kube-system/service/kube-dns', ports: 'UDP/53' };

describe('plan --live: the Connections section over the dumps', () => {
  test.each([
    {
      row: 'every kind, a NetworkPolicy that isolates nothing: the inventory’s section',
      kinds: ALL,
      policies: [INERT],
      basis: 'dumps',
      summary: 'nothing across clusters; inside members closes 13',
      pair: { ...KUBE_DNS_FROM_SHOP, change: 'closed', before: 'allowed (ingress: default)', after: `dropped (${DROP})` },
      note: undefined,
    },
    {
      row: 'a NetworkPolicy isolating kube-system: DNS was dropped by Kubernetes already, the deciding rule changes',
      kinds: ALL,
      policies: [INERT, ISOLATE_DNS],
      basis: 'dumps',
      summary: undefined,
      pair: { ...KUBE_DNS_FROM_SHOP, change: 'changed', before: 'dropped (ingress: kubernetes-networkpolicy)', after: `dropped (${DROP})` },
      note: undefined,
    },
    {
      row: 'no NetworkPolicy in the dumps: Kubernetes isolation unknown, the verdict before is uncertain',
      kinds: new Set(['Namespace', 'Pod']),
      policies: [],
      basis: 'dumps',
      summary: undefined,
      pair: {
        ...KUBE_DNS_FROM_SHOP,
        change: 'uncertain',
        // egress in east reaches its unknown Kubernetes stage (allowed or dropped); before, ingress allows, so either;
        // after, ingress drops, so dropped either way (compose in evaluate-connection.ts)
        before: 'uncertain (egress: kubernetes-networkpolicy)',
        after: `dropped (${DROP})`,
      },
      note: /the dumps of test-cluster-east, test-cluster-west hold no NetworkPolicy/,
    },
    {
      row: 'no Pods in the dumps: representative endpoints, said',
      kinds: new Set(['Namespace', 'NetworkPolicy']),
      policies: [INERT],
      basis: 'representative',
      summary: undefined,
      pair: undefined,
      note: /the dumps of test-cluster-east, test-cluster-west hold no Pods: representative endpoints/,
    },
  ])('$row', async ({ kinds, policies, basis, summary, pair, note }) => {
    const dir = dumps(`case-${[...kinds].join('-')}-${policies.length}`, kinds, policies);
    const result = await runLivePlan({ cwd: process.cwd(), paths: [HEAD], dumps: [dir], connections: {} });
    expect(result.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    const [report] = result.plan!.connections ?? [];
    expect(report?.basis).toBe(basis);
    if (summary) expect(report!.summary).toBe(summary);
    if (pair) {
      const found = report!.changes.find((c) => c.from === pair.from && c.to === pair.to && c.ports === pair.ports);
      expect(found?.change).toBe(pair.change);
      expect(`${found!.before.verdict} (${found!.before.rule})`).toBe(pair.before);
      expect(`${found!.after.verdict} (${found!.after.rule})`).toBe(pair.after);
    }
    if (note) expect(report!.notes.join('\n')).toMatch(note);
    else expect(report!.notes.join('\n')).not.toMatch(/hold no/);
  });

  test('drift reads the same dumps without a section', async () => {
    const dir = dumps('drift', ALL, [INERT]);
    const result = await runLivePlan({ cwd: process.cwd(), paths: [HEAD], dumps: [dir] });
    expect(result.plan!.connections).toBeUndefined();
  });
});

describe('plan --live through the CLI', () => {
  let dir: string;
  beforeAll(() => {
    dir = dumps('cli', ALL, [INERT]);
  });

  test.each([
    ['text', 'connections (policy impact over the live dumps): nothing across clusters; inside members closes 13'],
    ['markdown', '**Connections** (policy impact over the live dumps): nothing across clusters; inside members closes 13'],
  ])('%s: the section', async (format, line) => {
    const r = await runCli(['plan', '--live', dir, HEAD, '--format', format]);
    expect(r.stdout).toContain(line);
    expect(r.status).toBe(0);
  });

  test('json: connections, one entry per concrete pair', async () => {
    const r = await runCli(['plan', '--live', dir, HEAD, '--format', 'json']);
    const plan = JSON.parse(r.stdout) as { connections: Record<string, unknown>[] };
    expect(plan.connections).toHaveLength(13);
    expect(plan.connections).toContainEqual({
      clusterSet: 'test-clusterset',
      ...KUBE_DNS_FROM_SHOP,
      change: 'closed',
      before: { verdict: 'allowed', rule: 'ingress: default' },
      after: { verdict: 'dropped', rule: 'ingress: antrea-mc-strict-namespace-isolation · securityops · 1 · ingress[1] · Drop' },
    });
  });

  test('--inventory with --live: the inventory states what runs, not the dumps', async () => {
    const noPods = dumps('cli-no-pods', new Set(['Namespace']), []);
    const r = await runCli(['plan', '--live', noPods, HEAD, '--inventory', resolve('examples/inventory/test-clusterset.yaml')]);
    expect(r.stdout).toContain('connections (policy impact over the inventory): nothing across clusters; inside members closes 13');
  });
});
