import { describe, expect, test } from 'vitest';
import { compile } from '../../src/pipeline/compile';
import { LABELS } from '../../src/delivery/engine-names';
import { ARGOCD_SYNC_WAVE } from '../../src/delivery/argocd/sync-waves';
import type { KubeObject } from '../../src/kube/kube-object';

/**
 * The order a version bump rolls out in, in one commit (docs/releases.md): the leader before the
 * members in both engines, and inside a cluster CRDs, RBAC/config and webhooks before Antrea's
 * workloads. The controller and the agent share the workloads step: gating the agents on a
 * healthy controller would deadlock a new cluster, whose controller cannot be scheduled before
 * the agents make the Nodes Ready.
 */
const HUB = 'test/fixtures/compile/delivery-hub/definition.yaml';

const wave = (o: KubeObject) => Number(o.metadata.annotations?.[ARGOCD_SYNC_WAVE]);
// T names the spec's type at each call, as a cast would
// eslint-disable-next-line @typescript-eslint/no-unnecessary-type-parameters
const spec = <T>(o: KubeObject) => o.spec as T;

describe('upgrade order in the engines (delivery-hub: Argo CD and a hub Flux)', async () => {
  const { outputs, diagnostics } = await compile({ files: [HUB] });
  const output = outputs[0]!;
  const engines = Object.values(output.engines).flat();
  const leader = output.bundles.find((b) => b.role !== 'member')!;
  const members = output.bundles.filter((b) => b.role === 'member');

  test('the fixture compiles, with a leader and members', () => {
    expect(diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    expect(leader).toBeDefined();
    expect(members.length).toBeGreaterThan(0);
  });

  test('Argo CD: the RollingSync syncs the leader step before the member step', () => {
    const appSet = engines.find((o) => o.kind === 'ApplicationSet')!;
    const steps = spec<{ strategy: { rollingSync: { steps: { matchExpressions: { values: string[] }[] }[] } } }>(appSet).strategy.rollingSync.steps;
    expect(steps.map((s) => s.matchExpressions[0]!.values)).toEqual([['leader', 'dual-role'], ['member']]);
  });

  test('Argo CD: plain Applications put the leader in an earlier wave than every member', () => {
    const apps = engines.filter((o) => o.kind === 'Application');
    const waveOf = (clusterID: string) => wave(apps.find((a) => a.metadata.labels?.[LABELS.clusterID] === clusterID)!);
    for (const m of members) expect(waveOf(leader.clusterID)).toBeLessThan(waveOf(m.clusterID));
  });

  test("Flux (hub): every member's first layer waits for the leader's last layer", () => {
    const ks = engines.filter((o) => o.kind === 'Kustomization');
    // the leader's layers: not its verification, which nothing waits for
    const leaderLayers = ks
      .filter((k) => k.metadata.name.includes(`-${leader.clusterID}-`) && !k.metadata.name.endsWith('-verify'))
      .map((k) => k.metadata.name)
      .sort();
    for (const m of members) {
      const first = ks.filter((k) => k.metadata.name.includes(`-${m.clusterID}-`)).sort((a, b) => (a.metadata.name < b.metadata.name ? -1 : 1))[0]!;
      expect(spec<{ dependsOn: { name: string }[] }>(first).dependsOn.map((d) => d.name)).toEqual([leaderLayers[leaderLayers.length - 1]]);
    }
  });

  test('inside every cluster: CRDs, then webhooks, then antrea-controller and the agent together, never the agent first', () => {
    for (const bundle of output.bundles) {
      const find = (kind: string, name: string) => bundle.objects.find((o) => o.kind === kind && o.metadata.name === name)!;
      const controller = wave(find('Deployment', 'antrea-controller'));
      const agent = wave(find('DaemonSet', 'antrea-agent'));
      const webhooks = bundle.objects.filter((o) => o.kind.endsWith('WebhookConfiguration')).map(wave);
      const crds = bundle.objects.filter((o) => o.kind === 'CustomResourceDefinition').map(wave);
      expect(controller, bundle.clusterID).toBeLessThanOrEqual(agent);
      expect(Math.max(...webhooks), bundle.clusterID).toBeLessThan(controller);
      expect(Math.max(...crds), bundle.clusterID).toBeLessThan(Math.min(...webhooks));
    }
  });
});
