import { describe, expect, test } from 'vitest';
import { compile } from '../../src/compile';
import { memberTokenName } from '../../src/synth/constructs/member-credentials';
import { ARGOCD_SYNC_OPTIONS, isGuarded } from '../../src/synth/guards';
import type { KubeObject } from '../../src/synth/kube-object';
import { allDefinitions } from './definitions';

const annotations = (o: KubeObject) => o.metadata.annotations as Record<string, string> | undefined;

/**
 * What must survive a refactor of the definition or of the engine's app: the leader's common
 * area, every member credential and its member-side source, and the partial Gateway Nodes.
 */
describe.each(allDefinitions())('guards in %s', (definition) => {
  test('leader Namespace, member credentials, token sources and Gateway Nodes carry both engines guards', async () => {
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
        const namespace = bundle.objects.find((o) => o.kind === 'ClusterSet' && (o.spec as { leaders: { server?: string }[] }).leaders[0]!.server === undefined)!.metadata.namespace!;
        check(find('Namespace', namespace), `${bundle.clusterID} Namespace ${namespace}`);
        for (const id of memberIDs) {
          for (const kind of ['ServiceAccount', 'Secret', 'RoleBinding']) check(find(kind, memberTokenName(id)), `${bundle.clusterID} ${kind} ${memberTokenName(id)}`);
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
