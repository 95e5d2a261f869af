import { describe, expect, test } from 'vitest';
import { loadYaml } from '../../src/load/load-yaml';
import { inventoryFromDump } from '../../src/policy/read-inventory';

// A kubectl dump read as an inventory (inventoryFromDump, shared by `--inventory` and plan --live):
// a kind the dump holds no object of is unknown, and a dual-stack Pod keeps every address.

const pod = (name: string, podIP: string, podIPs: string[]) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name, namespace: 'shop', labels: { app: name } },
  spec: { containers: [{ name: 'c', image: 'x' }] },
  status: { podIP, podIPs: podIPs.map((ip) => ({ ip })) },
});
const NAMESPACE = { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'shop', labels: { org: 'a' } } };
const POLICY = { apiVersion: 'networking.k8s.io/v1', kind: 'NetworkPolicy', metadata: { name: 'deny', namespace: 'shop' }, spec: { podSelector: {} } };

function read(items: unknown[]) {
  const text = JSON.stringify({ apiVersion: 'v1', kind: 'List', items });
  const diagnostics: never[] = [];
  const source = loadYaml('east.json', text, diagnostics)!;
  const r = inventoryFromDump({ file: 'east.json', source }, items, 'east', diagnostics);
  expect(diagnostics).toEqual([]);
  return r;
}

describe('inventoryFromDump', () => {
  test.each([
    { row: 'Pods and a NetworkPolicy: both known', items: [NAMESPACE, pod('web', '10.10.1.5', ['10.10.1.5']), POLICY], pods: true, policies: 1 },
    { row: 'no NetworkPolicy: Kubernetes isolation unknown', items: [NAMESPACE, pod('web', '10.10.1.5', ['10.10.1.5'])], pods: true, policies: undefined },
    { row: 'no Pod: the dump did not ask for Pods', items: [NAMESPACE, POLICY], pods: false, policies: 1 },
  ])('$row', ({ items, pods, policies }) => {
    const { cluster, held } = read(items);
    expect(held.pods).toBe(pods);
    expect(cluster.networkPolicies?.length).toBe(policies);
    expect(cluster.namespaces.get('shop')!.labels.org).toBe('a');
  });

  test.each([
    { row: 'single-stack: one address', podIPs: ['10.10.1.5'], ips: undefined },
    { row: 'dual-stack: both addresses, the IPv6 one kept', podIPs: ['10.10.1.5', 'fd00:10::5'], ips: ['10.10.1.5', 'fd00:10::5'] },
    { row: 'an address that is not one is dropped', podIPs: ['10.10.1.5', 'not-an-ip'], ips: undefined },
  ])('$row', ({ podIPs, ips }) => {
    const { cluster } = read([NAMESPACE, pod('web', '10.10.1.5', podIPs)]);
    const p = cluster.namespaces.get('shop')!.pods[0]!;
    expect(p.ip).toBe('10.10.1.5');
    expect(p.ips).toEqual(ips);
  });
});
