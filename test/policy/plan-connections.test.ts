import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { runCli } from '../helpers/run-cli';
import { withoutGatewayHa } from '../helpers/gateway-ha';

// `plan --inventory` over a real change: the user guide's strict-namespace-isolation added to
// clustersets/test-clusterset.yaml (the base is the same file without it).
const dir = mkdtempSync(join(tmpdir(), 'plan-connections-'));
const INVENTORY = resolve('examples/inventory/test-clusterset.yaml');
const git = (...args: string[]) => execFileSync('git', args, { cwd: dir, stdio: 'pipe' });

beforeAll(() => {
  const head = readFileSync('clustersets/test-clusterset.yaml', 'utf8');
  const base = head.slice(0, head.indexOf('  policies:')) + head.slice(head.indexOf('  # the leader'));
  mkdirSync(join(dir, 'clustersets'));
  writeFileSync(join(dir, 'clustersets/test-clusterset.yaml'), base);
  git('init', '-q');
  git('add', '-A');
  git('-c', 'user.email=t@example.com', '-c', 'user.name=t', 'commit', '-qm', 'base');
  writeFileSync(join(dir, 'clustersets/test-clusterset.yaml'), head);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('plan --inventory: strict-namespace-isolation', () => {
  /** The text plan, run once for the two tests that read it. */
  let textPlan: ReturnType<typeof runCli> | undefined;
  const planText = () => (textPlan ??= runCli(['plan', '--base', 'HEAD', '--inventory', INVENTORY], { cwd: dir }));

  test('text: the count line, the closed connections, disruptive, and the DNS warning', async () => {
    const r = await planText();
    expect(withoutGatewayHa(r.stderr)).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('connections (policy impact over the inventory): nothing across clusters; inside members closes 13');
    expect(r.stdout).toContain('[disruptive] the policies close 13 connections that were open');
    expect(r.stdout).toContain('[disruptive] warning: the policies drop DNS to kube-system');
    expect(r.stdout).toContain(
      'test-cluster-east/shop/web → test-cluster-east/kube-system/service/kube-dns UDP/53: allowed (ingress: default) → dropped (ingress: antrea-mc-strict-namespace-isolation · securityops · 1 · ingress[1] · Drop)',
    );
    // nothing across clusters: the Drop peer is not ClusterSet-scoped
    expect(r.stdout).not.toMatch(/test-cluster-east\/\S+ → test-cluster-west/);
  });

  test("README's excerpt is this plan's output, line for line", async () => {
    const r = await planText();
    const readme = readFileSync('README.md', 'utf8');
    const block = readme.slice(readme.indexOf('### Policy impact in the plan'));
    const start = block.indexOf('```text\n') + '```text\n'.length;
    const excerpt = block.slice(start, block.indexOf('\n```', start)).split('\n');
    const shown = excerpt.filter((l) => l.trim() !== '…');
    expect(shown.length).toBeGreaterThan(5);
    const output = r.stdout.split('\n');
    for (const line of shown) expect(output, line).toContain(line);
  });

  test('json: one entry per concrete pair with from, to, ports, change, before, after', async () => {
    const r = await runCli(['plan', '--base', 'HEAD', '--inventory', INVENTORY, '--format', 'json'], { cwd: dir });
    const plan = JSON.parse(r.stdout) as { summary: Record<string, number>; connections: Record<string, unknown>[] };
    expect(plan.summary.disruptive).toBe(2);
    expect(plan.connections).toHaveLength(13);
    expect(plan.connections).toContainEqual({
      clusterSet: 'test-clusterset',
      from: 'test-cluster-east/shop/web',
      to: 'test-cluster-east/kube-system/service/kube-dns',
      ports: 'UDP/53',
      change: 'closed',
      before: { verdict: 'allowed', rule: 'ingress: default' },
      after: { verdict: 'dropped', rule: 'ingress: antrea-mc-strict-namespace-isolation · securityops · 1 · ingress[1] · Drop' },
    });
  });

  test('without --inventory: representative endpoints, named by their labels, grouped where clusters behave alike', async () => {
    const r = await runCli(['plan', '--base', 'HEAD'], { cwd: dir });
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('connections (policy impact over representative endpoints): nothing across clusters; inside members closes');
    // a Pod of another Namespace to CoreDNS, in both members alike
    expect(r.stdout).toContain(
      '*/demo/pods k8s-app=other → */kube-system/pods k8s-app=kube-dns TCP/1-65535: allowed (ingress: default) → dropped (ingress: antrea-mc-strict-namespace-isolation · securityops · 1 · ingress[1] · Drop) in test-cluster-east, test-cluster-west',
    );
    expect(r.stdout).toContain('[disruptive] warning: the policies drop DNS to kube-system');
    expect(r.stdout).toContain('note: representative endpoints (no --inventory)');
  });

  test('markdown: the Connections table inside the ClusterSet', async () => {
    const r = await runCli(['plan', '--base', 'HEAD', '--inventory', INVENTORY, '--format', 'markdown'], { cwd: dir });
    expect(r.stdout).toContain('**Connections** (policy impact over the inventory): nothing across clusters; inside members closes 13');
    expect(r.stdout).toContain('| from | to | ports | before | after | clusters |');
  });
});
