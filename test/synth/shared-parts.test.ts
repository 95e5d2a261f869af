import { expect, test } from 'vitest';
import { fleet } from '../../bench/fleet';
import type { ClusterSetInput } from '../../src/model/clusterset';
import type { KubeObject } from '../../src/kube/kube-object';
import { antreaCoreKey } from '../../src/synth/parts/antrea-core';
import { compileSource, dataSource } from '../helpers/compile-data';
import { LATEST } from '../helpers/releases';

// Shared parts (context.ts): Antrea core depends on a cluster's Antrea settings alone, a member's
// mc-controller access on its Namespace. Clusters with equal inputs share one frozen value per
// object (which the layout stage serializes and checks once), any difference in them gives the cluster its
// own objects, and nothing else of the cluster gets in.

/** The pipeline into memory (compile()'s sink); an object of a cluster's bundle by kind and name. */
async function synth(input: ClusterSetInput) {
  const { validate, layout, output } = await compileSource(dataSource(input, 'fleet.yaml'));
  expect([...validate, ...layout].filter((d) => d.severity === 'error')).toEqual([]);
  return (id: string, kind = 'DaemonSet', name = 'antrea-agent'): KubeObject =>
    output!.bundles.find((b) => b.clusterID === id)!.objects.find((o) => o.kind === kind && o.metadata.name === name)!;
}

type Cluster = { clusterID: string; cloud?: string; namespace?: string; network?: Record<string, unknown> };
const withCluster = (input: ClusterSetInput, id: string, change: Omit<Cluster, 'clusterID'>): ClusterSetInput => {
  const spec = input.spec as unknown as { clusters: Cluster[] };
  return { ...input, spec: { ...input.spec, clusters: spec.clusters.map((c) => (c.clusterID === id ? { ...c, ...change } : c)) } } as ClusterSetInput;
};

test('members with the same Antrea settings share Antrea core by identity, frozen, across runs', async () => {
  const object = await synth(fleet(4));
  expect(object('cluster-1')).toBe(object('cluster-2'));
  expect(object('cluster-1', 'ClusterRole', 'antrea-agent')).toBe(object('cluster-3', 'ClusterRole', 'antrea-agent'));
  expect(Object.isFrozen(object('cluster-1'))).toBe(true);
  expect(Object.isFrozen((object('cluster-1') as unknown as { spec: object }).spec)).toBe(true);
  // the leader keeps Multi-cluster off in its agents: other settings, other objects
  expect(object('cluster-0')).not.toEqual(object('cluster-1'));
  // a second run of the process renders nothing again
  expect((await synth(fleet(4)))('cluster-1')).toBe(object('cluster-1'));
});

test('a cluster whose Antrea settings differ gets its own Antrea core; its other settings do not matter', async () => {
  const object = await synth(withCluster(fleet(4), 'cluster-2', { cloud: 'EKS', network: { trafficEncapMode: 'networkPolicyOnly' } }));
  expect(object('cluster-2', 'ConfigMap', 'antrea-config')).not.toEqual(object('cluster-1', 'ConfigMap', 'antrea-config'));
  expect(object('cluster-2', 'DaemonSet', 'antrea-node-init')).toBeDefined();
  expect(object('cluster-1', 'DaemonSet', 'antrea-node-init')).toBeUndefined();
  expect(object('cluster-3')).toBe(object('cluster-1'));
  // cluster-1 differs from a plain member in its Gateway, CIDRs and name only: none reaches Antrea core
  const plain = await synth(fleet(4, { changedMember: 1 }));
  expect(plain('cluster-1')).toBe(object('cluster-1'));
});

test('the key tells apart settings the release field of the options could hide', () => {
  const key = (agentConfig: Record<string, unknown>) => {
    const source = { release: { version: LATEST }, agentConfig } as never;
    return antreaCoreKey({ install: 'full', options: source });
  };
  expect(key({ release: { a: 1 } })).not.toBe(key({ release: { a: 2 } }));
});

test("members in one Namespace share the mc-controller's access objects; its configuration stays each member's own", async () => {
  const object = await synth(withCluster(fleet(4), 'cluster-3', { namespace: 'mc-elsewhere' }));
  const sa = (id: string) => object(id, 'ServiceAccount', 'antrea-mc-controller');
  expect(sa('cluster-1')).toBe(sa('cluster-2'));
  expect(sa('cluster-3')).not.toBe(sa('cluster-1'));
  expect(sa('cluster-3').metadata.namespace).toBe('mc-elsewhere');
  const webhook = (id: string) => object(id, 'MutatingWebhookConfiguration', 'antrea-mc-mutating-webhook-configuration');
  expect(webhook('cluster-1')).toBe(webhook('cluster-2'));
  const config = (id: string) => object(id, 'ConfigMap', 'antrea-mc-controller-config');
  expect(config('cluster-1')).not.toEqual(config('cluster-2'));
  expect(Object.isFrozen(config('cluster-1'))).toBe(false);
});
