import { describe, expect, test } from 'vitest';
import { compile } from '../../src/pipeline/compile';
import { ARGOCD_SYNC_WAVE } from '../../src/delivery/argocd/sync-waves';
import { ARGOCD_SYNC_OPTIONS } from '../../src/delivery/argocd/guards';
import { FLUX_PRUNE } from '../../src/delivery/flux/guards';
import { isGuarded } from '../../src/delivery/prune-guards';
import type { KubeObject } from '../../src/kube/kube-object';
import { LAYERS, layerIndex } from '../../src/delivery/layers';
import { allDefinitions } from '../synth/definitions';

const annotations = (o: KubeObject) => (o.metadata.annotations ?? {}) as Record<string, string>;
const ref = (o: KubeObject) => `${o.kind} ${o.metadata.namespace ?? ''}/${o.metadata.name}`;

/**
 * What must be guarded, recognised from the bundle itself (not from how synth built it). A
 * member's credentials on the leader are not: a removed member's must be pruned (revoked).
 */
function mustGuard(o: KubeObject, bundle: readonly KubeObject[]): boolean {
  const tokenSecretOfClusterSet = (namespace: string | undefined, name: string) =>
    bundle.some(
      (cs) =>
        cs.kind === 'ClusterSet' &&
        cs.metadata.namespace === namespace &&
        (cs.spec as { leaders: { secret?: string }[] }).leaders.some((l) => l.secret === name),
    );
  switch (o.kind) {
    case 'Namespace':
    case 'CustomResourceDefinition':
    case 'Node':
    case 'ExternalSecret':
    case 'SealedSecret':
      return true;
    case 'Secret':
      return tokenSecretOfClusterSet(o.metadata.namespace, o.metadata.name);
    default:
      return false;
  }
}

describe.each(allDefinitions())('%s', (definition) => {
  const compiled = compile({ files: [definition] });

  test('every object has the sync wave of its layer, and waves follow the layer order', async () => {
    const { diagnostics, outputs } = await compiled;
    expect(diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    for (const bundle of outputs[0]!.bundles) {
      const waves = bundle.objects.map((o) => ({ o, wave: Number(annotations(o)[ARGOCD_SYNC_WAVE]) }));
      for (const { o, wave } of waves) expect(wave, `${bundle.clusterID} ${ref(o)}`).toBe(layerIndex(o));
      // strictly increasing from one layer to the next: no object of a later layer syncs earlier
      const byLayer = LAYERS.map((_, i) => waves.filter((w) => layerIndex(w.o) === i).map((w) => w.wave));
      const present = byLayer.filter((w) => w.length > 0);
      for (let i = 1; i < present.length; i++) expect(Math.min(...present[i]!)).toBeGreaterThan(Math.max(...present[i - 1]!));
    }
  });

  test('each guarded kind is guarded in both engines, and nothing else is', async () => {
    const { outputs } = await compiled;
    const wrong: string[] = [];
    for (const bundle of outputs[0]!.bundles) {
      for (const o of bundle.objects) {
        const expected = mustGuard(o, bundle.objects);
        if (isGuarded(annotations(o)) !== expected) wrong.push(`${bundle.clusterID} ${ref(o)}: expected ${expected ? '' : 'not '}guarded`);
        if (!expected && (annotations(o)[FLUX_PRUNE] || annotations(o)[ARGOCD_SYNC_OPTIONS])) wrong.push(`${bundle.clusterID} ${ref(o)}: stray guard`);
        // a Node object is a patch of a live Node: server-side apply only
        if (o.kind === 'Node' && !annotations(o)[ARGOCD_SYNC_OPTIONS]?.split(',').includes('ServerSideApply=true')) wrong.push(`${ref(o)}: no SSA`);
      }
    }
    expect(wrong).toEqual([]);
  });
});
