import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { effectiveClusters } from '../../src/model/effective';
import { ClusterSetSchema } from '../../src/model/clusterset';
import { FLUX_PRUNE } from '../../src/synth/guards';
import { deliveryObjects, deliverySources } from '../../src/synth/delivery';
import type { KubeObject } from '../../src/kube/kube-object';

const fluxOf = (name: string): KubeObject[] => {
  const raw = parse(readFileSync('clustersets/test-clusterset.yaml', 'utf8')) as { metadata: { name: string } };
  raw.metadata.name = name;
  const definition = ClusterSetSchema.parse(raw);
  return Object.values(deliveryObjects(deliverySources(definition, effectiveClusters(definition)))).flat();
};

/**
 * Flux's garbage collection as it applies to the flux/ folder: the parent Kustomization deletes
 * the objects of its inventory that left git, unless they carry `kustomize.toolkit.fluxcd.io/prune:
 * disabled`; a child Kustomization deleted with `prune: true` then deletes its own inventory (a
 * whole bundle layer: the antrea-agent DaemonSet for the workloads layer).
 */
const prunedByParent = (before: readonly KubeObject[], after: readonly KubeObject[]) => {
  const kept = new Set(after.map((o) => `${o.kind}/${o.metadata.namespace}/${o.metadata.name}`));
  return before.filter((o) => !kept.has(`${o.kind}/${o.metadata.namespace}/${o.metadata.name}`) && o.metadata.annotations?.[FLUX_PRUNE] !== 'disabled');
};

describe('Flux delivery: a ClusterSet renamed or removed does not uninstall Antrea', () => {
  it('every layer, exports and verify Kustomization is guarded against its parent', () => {
    const objects = fluxOf('test-clusterset');
    // three clusters' five layers, test-cluster-west's exports from Namespace demo, and the two members' verifications
    expect(objects.length).toBe(18);
    for (const o of objects) expect(o.metadata.annotations?.[FLUX_PRUNE], o.metadata.name).toBe('disabled');
  });

  it('renaming the ClusterSet prunes no Kustomization, so no bundle layer is garbage-collected', () => {
    const before = fluxOf('test-clusterset');
    const after = fluxOf('prod-clusterset');
    expect(after.map((o) => o.metadata.name)).not.toContain(before[0]!.metadata.name);
    expect(prunedByParent(before, after)).toEqual([]);
  });

  it('removing the definition prunes nothing either', () => {
    expect(prunedByParent(fluxOf('test-clusterset'), [])).toEqual([]);
  });

  it('without the guard the same rename would delete the workloads layer Kustomizations (the CNI)', () => {
    const strip = (os: KubeObject[]) => os.map((o) => ({ ...o, metadata: { ...o.metadata, annotations: {} } }));
    const pruned = prunedByParent(strip(fluxOf('test-clusterset')), strip(fluxOf('prod-clusterset')));
    expect(pruned.map((o) => o.metadata.name)).toContain('test-clusterset-test-cluster-east-3-workloads');
  });
});
