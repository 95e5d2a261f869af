import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { compile } from '../../src/pipeline/compile';
import { CLOUDS, NODE_INIT } from '../../src/antrea/workloads';
import { layerDirectoryOf } from '../../src/delivery';
import { ARGOCD_SYNC_WAVE } from '../../src/delivery/argocd/sync-waves';
import type { KubeObject } from '../../src/kube/kube-object';
import { LATEST } from '../helpers/releases';

/**
 * A cloud's node-init prepares each Node before Antrea's CNI is installed (upstream applies
 * antrea-<cloud>-node-init.yml first). Both engines must apply it before the agent: an earlier
 * Argo CD wave, and a Flux layer the agent's layer depends on.
 */
const DEFINITION = `apiVersion: antrea-clusterset/v1alpha1
kind: ClusterSetDefinition
metadata: { name: clouds }
spec:
  antrea: { version: ${LATEST} }
  leader: { clusterID: aws, server: https://aws.example.com:6443 }
  clusters:
    - { clusterID: aws, cloud: EKS, network: { trafficEncapMode: networkPolicyOnly }, serviceCIDR: 10.96.0.0/16, podCIDRs: [10.1.0.0/16], gateways: [{ node: aws-gw }], delivery: { argocd: { name: aws } } }
    - { clusterID: azure, cloud: AKS, network: { trafficEncapMode: networkPolicyOnly }, serviceCIDR: 10.97.0.0/16, podCIDRs: [10.2.0.0/16], gateways: [{ node: azure-gw }], delivery: { argocd: { name: azure } } }
    - { clusterID: gcp, cloud: GKE, network: { trafficEncapMode: noEncap }, serviceCIDR: 10.98.0.0/16, podCIDRs: [10.3.0.0/16], gateways: [{ node: gcp-gw }], delivery: { argocd: { name: gcp } } }
    - { clusterID: dc, serviceCIDR: 10.99.0.0/16, podCIDRs: [10.4.0.0/16], gateways: [{ node: dc-gw }], delivery: { argocd: { name: dc } } }
  delivery:
    argocd: { repoURL: https://git.example.com/fleet.git }
    flux: { sourceRef: { name: fleet } }
`;

const wave = (o: KubeObject) => Number(o.metadata.annotations?.[ARGOCD_SYNC_WAVE]);

describe('node-init on EKS, AKS and GKE', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'node-init-'));
  const file = join(dir, 'clouds.yaml');
  writeFileSync(file, DEFINITION);
  const { outputs, diagnostics } = await compile({ files: [file] });
  const output = outputs[0]!;
  const bundle = (id: string) => output.bundles.find((b) => b.clusterID === id)!;
  const find = (id: string, kind: string, name: string) => bundle(id).objects.find((o) => o.kind === kind && o.metadata.name === name);

  test('compiles without errors', () => {
    expect(diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  });

  test.each(['aws', 'azure', 'gcp'])('%s: node-init runs its cloud script, in a wave before the agent and the controller', (id) => {
    const nodeInit = find(id, 'DaemonSet', NODE_INIT)!;
    const cloud = ({ aws: 'EKS', azure: 'AKS', gcp: 'GKE' } as const)[id as 'aws' | 'azure' | 'gcp'];
    expect(JSON.stringify(nodeInit)).toContain(JSON.stringify(CLOUDS[cloud].nodeInitScript));
    expect(wave(nodeInit)).toBeLessThan(wave(find(id, 'DaemonSet', 'antrea-agent')!));
    expect(wave(nodeInit)).toBeLessThan(wave(find(id, 'Deployment', 'antrea-controller')!));
    expect(layerDirectoryOf(nodeInit)).toBe('1-rbac-config');
  });

  test('a cluster without a cloud has no node-init', () => {
    expect(find('dc', 'DaemonSet', NODE_INIT)).toBeUndefined();
  });

  test("Flux: the layer holding node-init is an ancestor of the agent's layer in the dependsOn chain", () => {
    const ks = Object.values(output.engines)
      .flat()
      .filter((o) => o.kind === 'Kustomization');
    for (const id of ['aws', 'azure', 'gcp']) {
      const byName = new Map(ks.filter((k) => k.metadata.name.startsWith(`clouds-${id}-`)).map((k) => [k.metadata.name, k]));
      const path = (k: KubeObject) => (k.spec as { path: string }).path;
      const holding = (dirName: string) => [...byName.values()].find((k) => path(k).endsWith(`/${dirName}`))!;
      const agentLayer = holding(layerDirectoryOf(find(id, 'DaemonSet', 'antrea-agent')!));
      const nodeInitLayer = holding(layerDirectoryOf(find(id, 'DaemonSet', NODE_INIT)!));
      const ancestors: string[] = [];
      for (let k: KubeObject | undefined = agentLayer; k;) {
        const next: string | undefined = (k.spec as { dependsOn?: { name: string }[] }).dependsOn?.[0]?.name;
        k = next ? byName.get(next) : undefined;
        if (k) ancestors.push(k.metadata.name);
      }
      expect(ancestors, id).toContain(nodeInitLayer.metadata.name);
      expect((nodeInitLayer.spec as { wait?: boolean }).wait, 'the layer waits until node-init is ready').toBe(true);
    }
  });
});
