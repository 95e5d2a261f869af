import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { parse } from 'yaml';
import { compile } from '../../src/pipeline/compile';
import { HELM_VALUES_FILE } from '../../src/synth/parts/antrea-core';
import type { Bundle } from '../../src/synth/synth-clusterset';
import { LATEST } from '../helpers/releases';

/**
 * `install: multiclusterOnly`: a cluster whose Antrea comes from elsewhere gets Multi-cluster
 * only, and a member gets the chart values that give its agent the settings a full bundle would
 * have written into antrea-agent.conf.
 */
const definition = (install: { leader: string; east: string; west: string }) => `apiVersion: antrea-clusterset/v1alpha1
kind: ClusterSetDefinition
metadata: { name: elsewhere }
spec:
  antrea: { imageRegistry: registry.example.com/antrea, version: ${LATEST} }
  network: { podToPodConnectivity: true, tunnelType: vxlan }
  leader: { clusterID: mgmt, server: https://mgmt.example.com:6443 }
  tiers: [{ name: fleet, priority: 10 }]
  clusters:
    - { clusterID: mgmt, member: false, install: ${install.leader} }
    - { clusterID: east, install: ${install.east}, cloud: GKE, namespace: antrea-mc, network: { trafficEncapMode: noEncap }, serviceCIDR: 10.96.0.0/16, podCIDRs: [10.1.0.0/16], gateways: [{ node: east-gw }] }
    - { clusterID: west, install: ${install.west}, serviceCIDR: 10.97.0.0/16, podCIDRs: [10.2.0.0/16], gateways: [{ node: west-gw }] }
`;

async function build(install: { leader: string; east: string; west: string }) {
  const dir = mkdtempSync(join(tmpdir(), 'install-'));
  const file = join(dir, 'elsewhere.yaml');
  writeFileSync(file, definition(install));
  const { outputs, diagnostics, files } = await compile({ files: [file] });
  expect(diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  const bundle = (id: string): Bundle => outputs[0]!.bundles.find((b) => b.clusterID === id)!;
  return { bundle, files, notes: outputs[0]!.notes ?? '' };
}

const names = (b: Bundle) => b.objects.map((o) => `${o.kind}/${o.metadata.name}`);
const crdGroups = (b: Bundle) =>
  [...new Set(b.objects.filter((o) => o.kind === 'CustomResourceDefinition').map((o) => (o.spec as { group: string }).group))].sort();

describe('install: multiclusterOnly', async () => {
  const full = await build({ leader: 'full', east: 'full', west: 'full' });
  const only = await build({ leader: 'multiclusterOnly', east: 'multiclusterOnly', west: 'full' });

  test('a member installed elsewhere gets no Antrea core, no core CRDs and no node-init, but all of Multi-cluster', () => {
    const east = only.bundle('east');
    for (const core of [
      'DaemonSet/antrea-agent',
      'Deployment/antrea-controller',
      'ConfigMap/antrea-config',
      'DaemonSet/antrea-node-init',
      'APIService/v1beta2.controlplane.antrea.io',
    ]) {
      expect(names(full.bundle('east')), core).toContain(core);
      expect(names(east), core).not.toContain(core);
    }
    // the member's ServiceExport CRD is of the MCS API group
    expect(crdGroups(east)).toEqual(['multicluster.crd.antrea.io', 'multicluster.x-k8s.io']);
    expect(crdGroups(full.bundle('east'))).toEqual(['crd.antrea.io', 'multicluster.crd.antrea.io', 'multicluster.x-k8s.io']);
    for (const mc of ['Deployment/antrea-mc-controller', 'ClusterSet/elsewhere', 'Tier/fleet', 'Node/east-gw']) expect(names(east), mc).toContain(mc);
  });

  test('a dedicated leader installed elsewhere gets its mc-controller, the common area and the credentials, and no values', () => {
    const mgmt = only.bundle('mgmt');
    expect(names(mgmt)).not.toContain('DaemonSet/antrea-agent');
    expect(crdGroups(mgmt)).toEqual(['multicluster.crd.antrea.io']);
    expect(names(mgmt)).toEqual(
      expect.arrayContaining(['Deployment/antrea-mc-controller', 'ClusterSet/elsewhere', 'ServiceAccount/west-member-token', 'Secret/east-member-token']),
    );
    expect(mgmt.helmValues).toBeUndefined();
  });

  test('the chart values carry what the full bundle writes into antrea-agent.conf', () => {
    const values = only.bundle('east').helmValues as Record<string, Record<string, unknown>>;
    const configMap = full.bundle('east').objects.find((o) => o.kind === 'ConfigMap' && o.metadata.name === 'antrea-config')!;
    const conf = parse((configMap.data as Record<string, string>)['antrea-agent.conf']!) as Record<string, Record<string, unknown>>;
    for (const key of ['trafficEncapMode', 'tunnelType', 'tunnelPort'] as const) expect(values[key], key).toEqual(conf[key]);
    expect(values.featureGates).toEqual({ Multicluster: true });
    expect(conf.featureGates!.Multicluster).toBe(true);
    for (const [key, value] of Object.entries(values.multicluster!)) expect(value, `multicluster.${key}`).toEqual(conf.multicluster![key]);
    expect(values.multicluster!.namespace).toBe('antrea-mc');
    // the GKE variant's CNI directory, and the mirror
    expect(values.cni).toEqual({ hostBinPath: '/home/kubernetes/bin' });
    expect(values.agentImage).toEqual({ repository: 'registry.example.com/antrea/antrea-agent-ubuntu', tag: LATEST });
  });

  test('a full member beside them is the same bundle as in an all-full set', () => {
    expect(only.bundle('west').objects).toEqual(full.bundle('west').objects);
    expect(only.bundle('west').helmValues).toBeUndefined();
  });

  test('the values are written beside the layers, outside every kustomization, and only where Antrea is installed elsewhere', () => {
    const paths = only.files.map((f) => f.path);
    expect(paths).toContain(`elsewhere/east/${HELM_VALUES_FILE}`);
    expect(paths.filter((p) => p.endsWith(HELM_VALUES_FILE))).toEqual([`elsewhere/east/${HELM_VALUES_FILE}`]);
    expect(full.files.map((f) => f.path).filter((p) => p.endsWith(HELM_VALUES_FILE))).toEqual([]);
    for (const f of only.files.filter((x) => x.path.endsWith('kustomization.yaml'))) expect(f.content).not.toContain(HELM_VALUES_FILE);
  });

  test('the notes give each such member its helm command and values, and say a dedicated leader needs no Antrea', () => {
    expect(only.notes).toContain('## Antrea installed elsewhere');
    expect(only.notes).toContain(`-f east/${HELM_VALUES_FILE}`);
    expect(only.notes).toContain(`--version ${LATEST.slice(1)}`);
    expect(only.notes).toContain('antrea-gke-node-init.yml');
    expect(only.notes).toMatch(/`mgmt` \(dedicated leader\): nothing of Antrea is needed/);
    expect(full.notes).not.toContain('## Antrea installed elsewhere');
  });
});
