import { evaluate } from '@marcbachmann/cel-js';
import { describe, expect, test } from 'vitest';
import { compile } from '../../src/pipeline/compile';
import { layerDirectoryOf } from '../../src/delivery';
import { ARGOCD_SYNC_WAVE } from '../../src/delivery/argocd/sync-waves';
import type { KubeObject } from '../../src/kube/kube-object';
import { allDefinitions } from './definitions';

/**
 * #12 item 1: applying a Gateway Node server-side creates the Node when it does not exist. Every
 * bundle with Gateway Nodes carries an admission policy that denies creating a Node that carries
 * the Gateway annotation, applied in an earlier layer. Its CEL is evaluated here as the API server
 * would for a CREATE: our own Gateway Node objects are denied (they only exist to annotate), a
 * kubelet's registration is admitted.
 */
interface Validation {
  expression: string;
  messageExpression: string;
}
interface PolicySpec {
  failurePolicy: string;
  matchConstraints: { resourceRules: { apiGroups: string[]; operations: string[]; resources: string[] }[] };
  validations: Validation[];
}

const wave = (o: KubeObject) => Number(o.metadata.annotations?.[ARGOCD_SYNC_WAVE]);

describe('Gateway Nodes are never created', async () => {
  // each on its own: the examples and fixtures are unrelated fleets that reuse cluster IDs
  const outputs = (await Promise.all(allDefinitions().map((f) => compile({ files: [f] })))).flatMap((r) => r.outputs);
  const bundles = outputs.flatMap((o) => o.bundles.map((b) => ({ name: `${o.name}/${b.clusterID}`, objects: b.objects })));
  const withGateways = bundles.filter((b) => b.objects.some((o) => o.kind === 'Node'));

  test('the examples have Gateway Nodes to guard', () => {
    expect(withGateways.length).toBeGreaterThan(5);
  });

  test.each(bundles.map((b) => [b.name, b] as const))(
    '%s: the policy and its binding are there exactly when Nodes are, a layer and a wave before them',
    (_, b) => {
      const policy = b.objects.find((o) => o.kind === 'ValidatingAdmissionPolicy');
      const binding = b.objects.find((o) => o.kind === 'ValidatingAdmissionPolicyBinding');
      const nodes = b.objects.filter((o) => o.kind === 'Node');
      if (nodes.length === 0) {
        expect(policy).toBeUndefined();
        expect(binding).toBeUndefined();
        return;
      }
      expect(policy && binding).toBeTruthy();
      expect(binding!.spec as { policyName: string; validationActions: string[] }).toEqual({ policyName: policy!.metadata.name, validationActions: ['Deny'] });
      for (const guard of [policy!, binding!]) {
        expect(layerDirectoryOf(guard)).toBe('2-webhooks');
        for (const n of nodes) expect(wave(guard)).toBeLessThan(wave(n));
      }
    },
  );

  const policy = withGateways[0]!.objects.find((o) => o.kind === 'ValidatingAdmissionPolicy')!;
  const spec = policy.spec as PolicySpec;
  const admits = (node: unknown) => spec.validations.every((v) => evaluate(v.expression, { object: node }) === true);

  test('it matches only the creation of Nodes, and fails closed', () => {
    expect(spec.failurePolicy).toBe('Fail');
    expect(spec.matchConstraints.resourceRules).toEqual([{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['nodes'] }]);
  });

  test.each(withGateways.flatMap((b) => b.objects.filter((o) => o.kind === 'Node').map((n) => [`${b.name} ${n.metadata.name}`, n] as const)))(
    'creating %s from the bundle is denied, with a message naming it',
    (_, node) => {
      expect(admits(node)).toBe(false);
      const message = evaluate(spec.validations[0]!.messageExpression, { object: node }) as string;
      expect(message).toContain(`Node ${node.metadata.name} does not exist`);
      expect(message).toContain('spec.clusters[].gateways[].node');
    },
  );

  test.each([
    [
      'a kubelet registering its Node',
      {
        apiVersion: 'v1',
        kind: 'Node',
        metadata: {
          name: 'worker-7',
          labels: { 'kubernetes.io/hostname': 'worker-7' },
          annotations: { 'volumes.kubernetes.io/controller-managed-attach-detach': 'true' },
        },
      },
    ],
    ['a Node with no annotations', { apiVersion: 'v1', kind: 'Node', metadata: { name: 'worker-8' } }],
    [
      'a Node with other Antrea annotations',
      { apiVersion: 'v1', kind: 'Node', metadata: { name: 'worker-9', annotations: { 'node.antrea.io/mac-address': '00:00:5e:00:53:01' } } },
    ],
  ])('%s is admitted', (_, node) => {
    expect(admits(node)).toBe(true);
  });
});
