import { evaluate } from '@marcbachmann/cel-js';
import { describe, expect, it } from 'vitest';
import { GATEWAY_ANNOTATION, GATEWAY_IP_ANNOTATION } from '../../src/synth/objects/gateway-node';
import { layerDirectoryOf } from '../../src/delivery/layer-paths';
import { isGuarded } from '../../src/delivery/prune-guards';
import { example, revision } from '../helpers/plan-revision';

/**
 * #27 item 1: a Gateway that leaves the definition must stop being one. A retired Gateway stays in
 * the bundle as its Node without the Gateway annotations, so the engine's server-side apply
 * removes the annotations it owned (never by deleting the Node), and the admission policy still
 * refuses to create it when the Node is gone.
 */
describe('a retired Gateway', async () => {
  const d = example('demo-clusterset');
  d.spec.clusters[2]!.gateways = [{ node: 'cl3-node2' }, { node: 'cl3-node1', ip: '192.168.200.9', retired: true }];
  const { outputs } = await revision({ 'cs.yaml': d });
  const bundle = outputs[0]!.bundles.find((b) => b.clusterID === 'demo-cluster-member3')!;
  const nodes = bundle.objects.filter((o) => o.kind === 'Node');
  const retired = nodes.find((n) => n.metadata.name === 'cl3-node1')!;

  it('is applied as its Node without either Gateway annotation, guarded and server-side like an active one', () => {
    expect(nodes.map((n) => n.metadata.name).sort()).toEqual(['cl3-node1', 'cl3-node2']);
    expect(retired.metadata.annotations).not.toHaveProperty([GATEWAY_ANNOTATION]);
    expect(retired.metadata.annotations).not.toHaveProperty([GATEWAY_IP_ANNOTATION]);
    expect(isGuarded(retired.metadata.annotations)).toBe(true);
    expect(retired.metadata.annotations?.['argocd.argoproj.io/sync-options']).toContain('ServerSideApply=true');
    expect(layerDirectoryOf(retired)).toBe('4-resources');
    // only the Node's identity and our marker: nothing else of the Node is claimed
    expect(Object.keys(retired).sort()).toEqual(['apiVersion', 'kind', 'metadata']);
  });

  it('the admission policy refuses to create it, as it refuses a missing active Gateway Node', () => {
    const policy = bundle.objects.find((o) => o.kind === 'ValidatingAdmissionPolicy')!;
    const validations = (policy.spec as { validations: { expression: string }[] }).validations;
    for (const n of nodes) expect(validations.every((v) => evaluate(v.expression, { object: n }) === true)).toBe(false);
  });

  it("the ClusterSet's README lists only active Gateways", () => {
    const readme = outputs[0]!.notes;
    expect(readme).toContain('cl3-node2');
    expect(readme).not.toMatch(/`cl3-node1` \(/);
  });
});
