import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { parse, stringify } from 'yaml';
import { runLivePlan } from '../../src/live/live-plan';
import { runningClusterSet } from '../helpers/live-dumps';

// plan --live against clusters that drifted from the definition: each drift is a line of plan's
// classes, or an object count; what nobody manages is never a change.

const tmp = mkdtempSync(join(process.env.CLUSTERSET_TEST_TMPDIR ?? '/tmp', 'live-drift-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const DEFINITION = 'clustersets/test-clusterset.yaml';
type Item = { kind: string; metadata: { name: string; namespace?: string; annotations?: Record<string, string> }; [k: string]: unknown };
type List = { items: Item[] };

async function planAfter(drift: (dumps: Map<string, List>) => void) {
  const dumps = new Map([...(await runningClusterSet(DEFINITION)).dumps].map(([id, text]) => [id, parse(text) as List]));
  drift(dumps);
  const dir = mkdtempSync(join(tmp, 'case-'));
  for (const [id, list] of dumps) writeFileSync(join(dir, `${id}.yaml`), stringify(list));
  const result = await runLivePlan({ cwd: process.cwd(), paths: [DEFINITION], dumps: [dir] });
  expect(result.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  return result.plan!;
}
const find = (list: List, kind: string, name: string) => list.items.find((i) => i.kind === kind && i.metadata.name === name)!;

describe('plan --live shows drift', () => {
  test('nothing drifted, and objects nobody manages are there: no change', async () => {
    const plan = await planAfter((d) =>
      d.get('test-cluster-east')!.items.push({ kind: 'ConfigMap', apiVersion: 'v1', metadata: { name: 'mine', namespace: 'demo' } }),
    );
    expect(plan.changes).toEqual([]);
    expect(plan.objectChanges).toEqual([]);
  });

  test('a Gateway annotation removed by hand', async () => {
    const plan = await planAfter(
      (d) => delete find(d.get('test-cluster-east')!, 'Node', 'test-cluster-east-node-1').metadata.annotations!['multicluster.antrea.io/gateway'],
    );
    expect(plan.changes.map((c) => `${c.impact}: ${c.text}`)).toEqual(['disruptive: Gateway of test-cluster-east is set to test-cluster-east-node-1']);
    expect(plan.objectChanges.map((c) => `${c.change} ${c.kind} ${c.name} ${c.paths.join()}`)).toEqual([
      'changed Node test-cluster-east-node-1 metadata.annotations.multicluster.antrea.io/gateway',
    ]);
  });

  test("a member's leader credentials deleted: listed as added", async () => {
    const plan = await planAfter((d) => {
      const leader = d.get('test-cluster-north')!;
      leader.items = leader.items.filter((i) => i.metadata.name !== 'test-cluster-west-member-token');
    });
    expect(plan.objectChanges.map((c) => `${c.change} ${c.kind} ${c.name}`).sort()).toEqual([
      'added RoleBinding test-cluster-west-member-token',
      'added Secret test-cluster-west-member-token',
      'added ServiceAccount test-cluster-west-member-token',
    ]);
    expect(plan.changes.some((c) => c.impact === 'destructive')).toBe(false);
  });

  test('a hand-edited Service CIDR in antrea-mc-controller-config', async () => {
    const plan = await planAfter((d) => {
      const cm = find(d.get('test-cluster-west')!, 'ConfigMap', 'antrea-mc-controller-config') as Item & { data: Record<string, string> };
      cm.data['controller_manager_config.yaml'] = cm.data['controller_manager_config.yaml']!.replace(
        'serviceCIDR: 10.112.0.0/16',
        'serviceCIDR: 10.113.0.0/16',
      );
    });
    const lines = plan.changes.map((c) => `${c.impact}: ${c.text}`);
    expect(lines).toContain('disruptive: Service CIDR of test-cluster-west changes from 10.113.0.0/16 to 10.112.0.0/16');
    expect(plan.objectChanges.map((c) => `${c.change} ${c.owner} ${c.kind} ${c.name}`)).toEqual([
      'changed test-cluster-west ConfigMap antrea-mc-controller-config',
    ]);
  });

  test('a policy export changed on the leader', async () => {
    const plan = await planAfter((d) => {
      const re = find(d.get('test-cluster-north')!, 'ResourceExport', 'strict-namespace-isolation-for-test-clusterset') as Item & {
        spec: { clusterNetworkPolicy: { priority: number } };
      };
      re.spec.clusterNetworkPolicy.priority = 5;
    });
    expect(plan.changes.map((c) => `${c.impact}: ${c.text}`)).toEqual(['safe: policy strict-namespace-isolation changes (replicated to 2 members)']);
  });

  test('a member whose dump is missing: refused, with the member named', async () => {
    const texts = (await runningClusterSet(DEFINITION)).dumps;
    const dir = mkdtempSync(join(tmp, 'case-'));
    for (const [id, text] of texts) if (id !== 'test-cluster-west') writeFileSync(join(dir, `${id}.yaml`), text);
    const result = await runLivePlan({ cwd: process.cwd(), paths: [DEFINITION], dumps: [dir] });
    // the leader holds its credentials: the reader refuses to guess
    expect(result.diagnostics.map((d) => `${d.code} ${d.message}`)).toContainEqual(
      expect.stringMatching(/^live-dump the leader has credentials for member test-cluster-west/),
    );
    expect(result.plan).toBeUndefined();
  });
});

test('a running member the head leaves out: nothing the engines applied, so nothing is revoked', async () => {
  const texts = (await runningClusterSet(DEFINITION)).dumps;
  const dir = mkdtempSync(join(tmp, 'case-'));
  for (const [id, text] of texts) writeFileSync(join(dir, `${id}.yaml`), text);
  const head = join(dir, 'head.yaml');
  writeFileSync(
    head,
    (await import('node:fs'))
      .readFileSync(DEFINITION, 'utf8')
      .replace(/    - clusterID: test-cluster-west\n(      .*\n|        .*\n)*/, '')
      .replace('exportFrom: [test-cluster-west]', 'exportFrom: [test-cluster-east]'),
  );
  const result = await runLivePlan({
    cwd: process.cwd(),
    paths: [head],
    dumps: [join(dir, 'test-cluster-north.yaml'), join(dir, 'test-cluster-east.yaml'), join(dir, 'test-cluster-west.yaml')],
  });
  expect(result.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  const lines = result.plan!.changes.map((c) => `${c.impact}: ${c.text}`);
  expect(lines).toContain(
    'safe: member test-cluster-west runs but is not in the definition: the first sync leaves it and its credentials on the leader as they run',
  );
  expect(lines.filter((l) => l.startsWith('destructive'))).toEqual([]);
  expect(JSON.stringify(result.plan!.checklist)).not.toContain('test-cluster-west');
});
