import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { runCli } from '../helpers/run-cli';
import { withoutGatewayHa } from '../helpers/gateway-ha';

const dir = mkdtempSync(join(tmpdir(), 'connections-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const file = (name: string, text: string) => {
  writeFileSync(join(dir, name), text);
  return join(dir, name);
};
const DEFINITION = 'clustersets/test-clusterset.yaml';
const INVENTORY = 'examples/inventory/test-clusterset.yaml';

describe('clusterset connections', () => {
  test('one query in text: both directions explained', async () => {
    const r = await runCli([
      'connections',
      DEFINITION,
      '--inventory',
      INVENTORY,
      '--from',
      'test-cluster-east/shop/web',
      '--to',
      'test-cluster-east/kube-system/service/kube-dns',
      '--port',
      'UDP/53',
    ]);
    expect(withoutGatewayHa(r.stderr)).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout).toBe(
      [
        'test-cluster-east/shop/web → test-cluster-east/kube-system/service/kube-dns UDP/53: dropped (through backend test-cluster-east/kube-system/coredns)',
        '  egress in test-cluster-east: allowed, no rule matches: what no rule decides is allowed',
        '  ingress in test-cluster-east: dropped by antrea-mc-strict-namespace-isolation · securityops · 1 · ingress[1] · Drop',
        '',
      ].join('\n'),
    );
  });

  test('--queries with --format json: the fields of the issue, one object per query', async () => {
    const queries = file(
      'queries.yaml',
      [
        '- { from: test-cluster-east/demo/client, to: mcs/demo/nginx@test-cluster-west, port: TCP/80 }',
        '- { from: test-cluster-east/demo/client, to: test-cluster-west/demo/nginx, port: TCP/80 }',
        '- { from: ip/8.8.8.8, to: test-cluster-east/shop/web, port: TCP/443 }',
      ].join('\n'),
    );
    const r = await runCli(['connections', DEFINITION, '--inventory', INVENTORY, '--queries', queries, '--format', 'json']);
    expect(r.status).toBe(0);
    const answers = JSON.parse(r.stdout) as Record<string, unknown>[];
    expect(answers.map((a) => [a.from, a.to, a.port, a.verdict])).toEqual([
      // the Drop peer is not ClusterSet-scoped: nothing is isolated across clusters
      ['test-cluster-east/demo/client', 'mcs/demo/nginx@test-cluster-west', 'TCP/80', 'allowed'],
      // Pod-to-Pod is off in test-clusterset
      ['test-cluster-east/demo/client', 'test-cluster-west/demo/nginx', 'TCP/80', 'no-path'],
      // an address outside: namespaceSelector {} matches no address, so the Drop does not apply
      ['ip/8.8.8.8', 'test-cluster-east/shop/web', 'TCP/443', 'allowed'],
    ]);
    for (const a of answers) expect(Object.keys(a).slice(0, 6)).toEqual(['from', 'to', 'port', 'verdict', 'egress', 'ingress']);
    expect(answers[0]!.ingress).toMatchObject({ verdict: 'allowed', rule: 'default' });
  });

  test('a mistake in the queries file is a diagnostic at its line', async () => {
    const queries = file('bad-queries.yaml', '- { from: test-cluster-east/shop/web, to: west/x, port: TCP/80 }\n- { from: a/b/c, to: a/b/d, port: HTTP/80 }\n');
    const r = await runCli(['connections', DEFINITION, '--inventory', INVENTORY, '--queries', queries]);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/bad-queries\.yaml:1:\d+.*"west\/x" is not an endpoint/);
    expect(r.stderr).toMatch(/bad-queries\.yaml:2:\d+.*"HTTP\/80" is not a port/);
  });

  test.each([
    ['labels not strings', '      - { name: shop, labels: { org: 1 } }', 'the label org is not a string'],
    ['a Pod ip that is not an address', "      - { name: shop, pods: [{ name: web, labels: {}, ip: '10.0.0.256' }] }", 'is not an IP address'],
    ['a Pod ip with a zone', "      - { name: shop, pods: [{ name: web, labels: {}, ip: 'fe80::1%eth0' }] }", 'is not an IP address'],
    ['a port outside 1-65535', '      - { name: shop, services: [{ name: s, selector: {}, ports: [{ port: 70000 }] }] }', 'port must be 1-65535'],
  ])('inventory: %s is a diagnostic at its line', async (_, line, message) => {
    const inv = file(
      'inv.yaml',
      [
        'apiVersion: antrea-clusterset/v1alpha1',
        'kind: ClusterSetInventory',
        'clusters:',
        '  - clusterID: test-cluster-east',
        '    namespaces:',
        line,
        '',
      ].join('\n'),
    );
    const r = await runCli(['connections', DEFINITION, '--inventory', inv, '--from', 'test-cluster-east/shop/web', '--to', 'ip/1.1.1.1', '--port', 'TCP/1']);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('inventory');
    expect(r.stderr).toMatch(new RegExp(`inv\\.yaml:6:\\d+.*${message.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
  });

  test('a kubectl dump is an inventory: its ClusterSet names the cluster', async () => {
    const dump = file(
      'east.json',
      JSON.stringify({
        apiVersion: 'v1',
        kind: 'List',
        items: [
          {
            apiVersion: 'multicluster.crd.antrea.io/v1alpha2',
            kind: 'ClusterSet',
            metadata: { name: 'test-clusterset', namespace: 'kube-system' },
            spec: { clusterID: 'test-cluster-east' },
          },
          { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'shop', labels: { org: 'a' } } },
          { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'other' } },
          { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web', namespace: 'shop', labels: { app: 'web' } }, status: { podIP: '10.10.2.5' } },
          { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'db', namespace: 'other', labels: { app: 'db' } }, status: { podIP: '10.10.3.5' } },
        ],
      }),
    );
    const r = await runCli([
      'connections',
      DEFINITION,
      '--inventory',
      dump,
      '--from',
      'test-cluster-east/shop/web',
      '--to',
      'test-cluster-east/other/db',
      '--port',
      'TCP/5432',
      '--format',
      'json',
    ]);
    expect(withoutGatewayHa(r.stderr)).toBe('');
    const [a] = JSON.parse(r.stdout) as { verdict: string; ingress: { rule: string } }[];
    // strict-namespace-isolation: another Namespace is dropped
    expect(a!.verdict).toBe('dropped');
    expect(a!.ingress.rule).toContain('antrea-mc-strict-namespace-isolation');
  });

  test.each([
    [['--from', 'a/b/c', '--to', 'a/b/d', '--port', 'TCP/1'], 'needs --inventory'],
    [['--inventory', INVENTORY, '--from', 'a/b/c'], 'needs --from, --to and --port'],
    [['--inventory', INVENTORY, '--from', 'a/b/c', '--to', 'nonsense', '--port', 'TCP/1'], 'is not an endpoint'],
    [['--inventory', INVENTORY, '--from', 'a/b/c', '--to', 'a/b/d', '--port', 'TCP/0'], 'is not a port'],
  ])('usage: %j', async (args, message) => {
    const r = await runCli(['connections', DEFINITION, ...args]);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(message);
  });
});
