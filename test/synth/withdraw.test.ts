import { describe, expect, it } from 'vitest';
import { EXPECTED_MEMBERS_ANNOTATION } from '../../src/health/cluster-set-health';
import { isGuarded } from '../../src/delivery/prune-guards';
import { verificationsOf } from '../../src/verify/verifications';
import { example, revision, type Definition } from '../helpers/plan-revision';

/**
 * #32 follow-up: a member leaves in two merges. With `withdraw: true` its bundle is delivered
 * without its ClusterSet (which the engine then prunes: it is not guarded), its ServiceExports and
 * its verification; the leader keeps its credentials, and the Services it exported alone are
 * checked nowhere.
 */
const withdrawing = (d: Definition, id: string): Definition => ({
  ...d,
  spec: { ...d.spec, clusters: d.spec.clusters.map((c) => (c.clusterID === id ? { ...c, withdraw: true } : c)) },
});

describe('a member marked withdraw: true', async () => {
  // test-cluster-west exports demo/nginx alone; every member exports shop/api
  const base = example('test-clusterset');
  base.spec.services!.push({ name: 'api', namespace: 'shop', exportFrom: '*' });
  const [before, after] = await Promise.all([revision({ 'cs.yaml': base }), revision({ 'cs.yaml': withdrawing(base, 'test-cluster-west') })]);
  const bundle = (r: typeof before, id: string) => r.outputs[0]!.bundles.find((b) => b.clusterID === id)!;
  const kinds = (r: typeof before, id: string) => bundle(r, id).objects.map((o) => `${o.kind} ${o.metadata.name}`);

  it('has no ClusterSet, ServiceExport or verification in its bundle, and the ClusterSet it had is not guarded', () => {
    const clusterSet = bundle(before, 'test-cluster-west').objects.find((o) => o.kind === 'ClusterSet')!;
    expect(isGuarded(clusterSet.metadata.annotations)).toBe(false);
    const west = bundle(after, 'test-cluster-west').objects;
    expect(west.filter((o) => o.kind === 'ClusterSet' || o.kind === 'ServiceExport')).toEqual([]);
    expect(west.filter((o) => o.metadata.labels?.['antrea-clusterset/unit'] === 'verify')).toEqual([]);
    // everything else stays: Antrea, the mc-controller, its token Secret
    const removed = kinds(before, 'test-cluster-west').filter((k) => !kinds(after, 'test-cluster-west').includes(k));
    expect(removed.every((k) => /^(ClusterSet|ServiceExport|Job|ConfigMap|ServiceAccount|Role|RoleBinding|ClusterRole|ClusterRoleBinding) /.test(k))).toBe(
      true,
    );
    expect(removed.filter((k) => !k.startsWith('ClusterSet ') && !k.startsWith('ServiceExport ')).every((k) => k.includes('antrea-clusterset-verify'))).toBe(
      true,
    );
    expect(kinds(after, 'test-cluster-west')).toContain('Deployment antrea-mc-controller');
  });

  it('the leader keeps its credentials and expects one member less', () => {
    expect(kinds(after, 'test-cluster-north')).toEqual(expect.arrayContaining(kinds(before, 'test-cluster-north').filter((k) => !k.startsWith('ClusterSet '))));
    const expected = (r: typeof before) =>
      bundle(r, 'test-cluster-north').objects.find((o) => o.kind === 'ClusterSet')!.metadata.annotations![EXPECTED_MEMBERS_ANNOTATION];
    expect([expected(before), expected(after)]).toEqual(['2', '1']);
  });

  it("the other members' verification no longer waits for a Service only the withdrawing member exported", () => {
    const script = (r: typeof before) =>
      bundle(r, 'test-cluster-east')
        .objects.filter((o) => o.kind === 'ConfigMap' && o.metadata.name.startsWith('antrea-clusterset-verify-'))
        .map((o) => (o.data as Record<string, string>)['verify.sh'])
        .join('');
    expect(script(before)).toContain('nginx');
    expect(script(after)).not.toContain('nginx');
    expect(script(after)).toMatch(/Service shop\/api/);
  });

  it('clusterset status checks nothing of it, and no member for the Service it exported alone', () => {
    const checks = verificationsOf(after.definitions.get('test-clusterset')!.definition);
    expect(checks.filter((c) => c.clusterID === 'test-cluster-west')).toEqual([]);
    expect(checks.filter((c) => c.subject === 'Service demo/nginx')).toEqual([]);
    expect(checks.filter((c) => c.subject === 'Service shop/api').map((c) => c.clusterID)).toEqual(['test-cluster-east']);
    const earlier = verificationsOf(before.definitions.get('test-clusterset')!.definition);
    expect(earlier.filter((c) => c.clusterID === 'test-cluster-west').length).toBeGreaterThan(0);
  });

  it('its Flux exports and verify Kustomizations leave flux/; its layers stay', () => {
    const names = (r: typeof before) => Object.values(r.outputs[0]!.engines).flatMap((objects) => objects.map((o) => o.metadata.name));
    const gone = names(before).filter((n) => !names(after).includes(n));
    expect(gone.sort()).toEqual([
      'test-clusterset-test-cluster-west-exports-demo',
      'test-clusterset-test-cluster-west-exports-shop',
      'test-clusterset-test-cluster-west-verify',
    ]);
  });

  it("the ClusterSet's README lists the Services as exported: without the withdrawing exporter, and none it exported alone", () => {
    const readme = after.outputs[0]!.notes!;
    expect(before.outputs[0]!.notes).toMatch(/\| `demo\/nginx` \| `test-cluster-west` \|/);
    expect(readme).not.toContain('`demo/nginx`');
    expect(readme).toMatch(/\| `shop\/api` \| `test-cluster-east` \|/);
  });

  it('only the withdrawing member and the leader rebuild (the incremental hashes see the flag)', () => {
    const inputs = (r: typeof before) => new Map(r.sets[0]!.sources.map((s) => [s.clusterID, s.inputs]));
    const [b, a] = [inputs(before), inputs(after)];
    const rebuilt = [...a].filter(([id, h]) => b.get(id) !== h).map(([id]) => id);
    // east rebuilds too: its verification drops the Service only west exported
    expect(rebuilt.sort()).toEqual(['test-cluster-east', 'test-cluster-north', 'test-cluster-west']);
  });
});
