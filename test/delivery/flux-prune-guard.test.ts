import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { effectiveClusters } from '../../src/model/effective';
import { ClusterSetSchema } from '../../src/model/clusterset';
import { FLUX_PRUNE } from '../../src/delivery/flux/guards';
import { deliveryObjects, deliverySources } from '../../src/delivery';
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
  const kept = new Set(after.map((o) => `${o.kind}/${String(o.metadata.namespace)}/${o.metadata.name}`));
  return before.filter((o) => !kept.has(`${o.kind}/${String(o.metadata.namespace)}/${o.metadata.name}`) && o.metadata.annotations?.[FLUX_PRUNE] !== 'disabled');
};

describe('Flux delivery: a ClusterSet renamed or removed does not uninstall Antrea', () => {
  // the exports units are the exception (#38): one that leaves git takes its ServiceExports with it
  const isExports = (o: KubeObject) => o.metadata.labels?.['antrea-clusterset/layer'] === 'exports';

  it('every layer and verify Kustomization is guarded against its parent; the exports units are not', () => {
    const objects = fluxOf('test-clusterset');
    // three clusters' five layers, test-cluster-west's exports from Namespace demo, and the two members' verifications
    expect(objects.length).toBe(18);
    expect(objects.filter(isExports).map((o) => o.metadata.name)).toEqual(['test-clusterset-test-cluster-west-exports-demo']);
    for (const o of objects) expect(o.metadata.annotations?.[FLUX_PRUNE], o.metadata.name).toBe(isExports(o) ? undefined : 'disabled');
  });

  it('renaming the ClusterSet prunes no layer Kustomization, so no bundle layer is garbage-collected', () => {
    const before = fluxOf('test-clusterset');
    const after = fluxOf('prod-clusterset');
    expect(after.map((o) => o.metadata.name)).not.toContain(before[0]!.metadata.name);
    expect(prunedByParent(before, after).filter((o) => !isExports(o))).toEqual([]);
  });

  it('removing the definition prunes no layer either', () => {
    expect(prunedByParent(fluxOf('test-clusterset'), []).filter((o) => !isExports(o))).toEqual([]);
  });

  it('without the guard the same rename would delete the workloads layer Kustomizations (the CNI)', () => {
    const strip = (os: KubeObject[]) => os.map((o) => ({ ...o, metadata: { ...o.metadata, annotations: {} } }));
    const pruned = prunedByParent(strip(fluxOf('test-clusterset')), strip(fluxOf('prod-clusterset')));
    expect(pruned.map((o) => o.metadata.name)).toContain('test-clusterset-test-cluster-east-3-workloads');
  });
});
