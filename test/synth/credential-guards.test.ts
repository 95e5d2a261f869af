import { describe, expect, test } from 'vitest';
import { compile } from '../../src/pipeline/compile';
import { memberTokenName } from '../../src/model/default-names';
import { ARGOCD_SYNC_OPTIONS } from '../../src/delivery/argocd/guards';
import { isGuarded } from '../../src/delivery/prune-guards';
import type { KubeObject } from '../../src/kube/kube-object';
import { allDefinitions } from './definitions';

const annotations = (o: KubeObject) => o.metadata.annotations;

/**
 * What must survive a refactor of the definition or of the engine's app: the leader's common
 * area, the member-side token source, and the partial Gateway Nodes. A member's credentials on
 * the leader are the opposite: when the member leaves the definition, an engine must prune
 * them, or the removed member keeps a valid token (issue #12, item 8).
 */
describe.each(allDefinitions())('guards in %s', (definition) => {
  test('leader Namespace, token sources and Gateway Nodes carry both engines guards; member credentials on the leader carry none', async () => {
    const { diagnostics, outputs } = await compile({ files: [definition] });
    expect(diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    const [output] = outputs;
    const memberIDs = output!.bundles.filter((b) => b.role !== 'leader').map((b) => b.clusterID);
    const unguarded: string[] = [];
    const check = (o: KubeObject | undefined, what: string) => {
      if (!o) unguarded.push(`${what}: missing`);
      else if (!isGuarded(annotations(o))) unguarded.push(`${what}: not guarded`);
    };

    for (const bundle of output!.bundles) {
      const find = (kind: string, name: string) => bundle.objects.find((o) => o.kind === kind && o.metadata.name === name);
      if (bundle.role !== 'member') {
        const namespace = bundle.objects.find(
          (o) => o.kind === 'ClusterSet' && (o.spec as { leaders: { server?: string }[] }).leaders[0]!.server === undefined,
        )!.metadata.namespace!;
        check(find('Namespace', namespace), `${bundle.clusterID} Namespace ${namespace}`);
        for (const id of memberIDs) {
          for (const kind of ['ServiceAccount', 'Secret', 'RoleBinding']) {
            const credential = find(kind, memberTokenName(id));
            if (!credential) unguarded.push(`${bundle.clusterID} ${kind} ${memberTokenName(id)}: missing`);
            // prunable: no guard of either engine
            else expect(annotations(credential)?.[ARGOCD_SYNC_OPTIONS] ?? '', `${kind} ${memberTokenName(id)}`).not.toMatch(/Prune=false|Delete=false/);
            if (credential) expect(annotations(credential)?.['kustomize.toolkit.fluxcd.io/prune'], `${kind} ${memberTokenName(id)}`).toBeUndefined();
          }
        }
      }
      const partial = bundle.objects.filter((o) => ['Node', 'ExternalSecret', 'SealedSecret'].includes(o.kind));
      for (const o of partial) check(o, `${bundle.clusterID} ${o.kind} ${o.metadata.name}`);
      // Gateway Nodes are patched, never replaced
      for (const node of bundle.objects.filter((o) => o.kind === 'Node')) {
        expect(annotations(node)?.[ARGOCD_SYNC_OPTIONS]?.split(','), node.metadata.name).toContain('ServerSideApply=true');
      }
    }
    expect(unguarded).toEqual([]);
  });
});
