import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { parse } from 'yaml';

/** The parts of the parsed objects the tests read. */
interface KubeDoc {
  readonly data: Record<string, string>;
  readonly spec: { readonly template: { readonly spec: { readonly containers: { name: string; env?: { name: string; value?: string }[] }[] } } };
}
/** A parsed config file: the sections the tests read, and the rest. */
interface Conf {
  /** null where the config leaves the section empty (`featureGates:` with nothing under it) */
  readonly featureGates: Record<string, boolean> | null;
  readonly multicluster: Record<string, unknown>;
  readonly [key: string]: unknown;
}
const conf = (text: string | undefined): Conf => parse(text ?? '') as Conf;

/** The parsed config files of a committed bundle (dist/ is the examples' golden output). */
function bundle(clusterSet: string, cluster: string) {
  const dir = `dist/${clusterSet}/${cluster}`;
  // a file of the bundle's layer, or of a shared unit the layer lists
  const read = (path: string) => {
    const [layer, name] = path.split('/') as [string, string];
    const units = [...readFileSync(`${dir}/${layer}/kustomization.yaml`, 'utf8').matchAll(/- \.\.\/\.\.\/\.\.\/(_shared\/\S+)/g)].map(
      (m) => `dist/${String(m[1])}`,
    );
    const found = [`${dir}/${layer}`, ...units].map((d) => `${d}/${name}`).find((f) => existsSync(f));
    return parse(readFileSync(found ?? `${dir}/${path}`, 'utf8')) as KubeDoc;
  };
  const antreaConfig = read('1-rbac-config/ConfigMap.kube-system.antrea-config.yaml').data;
  const agentEnv = read('3-workloads/DaemonSet.kube-system.antrea-agent.yaml').spec.template.spec.containers.find((c) => c.name === 'antrea-agent')!.env ?? [];
  return {
    agent: conf(antreaConfig['antrea-agent.conf']),
    controller: conf(antreaConfig['antrea-controller.conf']),
    memberMc: (ns = 'kube-system') => conf(read(`1-rbac-config/ConfigMap.${ns}.antrea-mc-controller-config.yaml`).data['controller_manager_config.yaml']),
    leaderMc: (ns = 'antrea-multicluster') =>
      conf(read(`1-rbac-config/ConfigMap.${ns}.antrea-mc-controller-config.yaml`).data['controller_manager_config.yaml']),
    env: Object.fromEntries(agentEnv.map((e) => [e.name, e.value])),
  };
}

describe('settings the examples put in each bundle', () => {
  test('field report: every cluster has the gate, the Gateway and Pod-to-Pod, with its own Pod and Service CIDRs', () => {
    for (const [cluster, pod, svc] of [
      ['demo-cluster-leader', '10.244.0.0/20', '10.96.0.0/20'],
      ['demo-cluster-member2', '10.244.16.0/20', '10.96.16.0/20'],
      ['demo-cluster-member3', '10.244.32.0/20', '10.96.32.0/20'],
    ] as const) {
      const b = bundle('demo-clusterset', cluster);
      expect(b.agent.featureGates?.Multicluster).toBe(true);
      expect(b.controller.featureGates?.Multicluster).toBe(true);
      expect(b.agent.multicluster).toMatchObject({
        enableGateway: true,
        namespace: 'kube-system',
        enablePodToPodConnectivity: true,
        enableStretchedNetworkPolicy: false,
        trafficEncryptionMode: 'none',
      });
      expect(b.agent).toMatchObject({ trafficEncapMode: 'encap', tunnelType: 'geneve', tunnelPort: 0 });
      expect(b.memberMc()).toMatchObject({
        serviceCIDR: svc,
        podCIDRs: [pod],
        gatewayIPPrecedence: 'private',
        endpointIPType: 'ClusterIP',
        enableStretchedNetworkPolicy: false,
      });
    }
    // the dual-role leader also runs the leader controller in the common area
    expect(bundle('demo-clusterset', 'demo-cluster-leader').leaderMc()).toMatchObject({ enableStretchedNetworkPolicy: false });
  });

  test('user guide: the dedicated leader keeps Multi-cluster off in its agents; members turn it on', () => {
    const north = bundle('test-clusterset', 'test-cluster-north');
    expect(north.agent.featureGates?.Multicluster).toBeUndefined();
    expect(north.leaderMc()).toMatchObject({ enableStretchedNetworkPolicy: false });
    for (const [cluster, svc] of [
      ['test-cluster-east', '10.96.0.0/16'],
      ['test-cluster-west', '10.112.0.0/16'],
    ] as const) {
      const b = bundle('test-clusterset', cluster);
      expect(b.agent.featureGates?.Multicluster).toBe(true);
      expect(b.agent.multicluster).toMatchObject({ enableGateway: true, enablePodToPodConnectivity: false });
      expect(b.memberMc()).toMatchObject({ serviceCIDR: svc, podCIDRs: [''] });
    }
  });

  test('EKS pair: networkPolicyOnly with the EKS agent environment', () => {
    for (const cluster of ['west-cluster', 'east-cluster']) {
      const b = bundle('eks-clusterset', cluster);
      expect(b.agent.trafficEncapMode).toBe('networkPolicyOnly');
      expect(b.agent.multicluster).toMatchObject({ enableGateway: true, namespace: 'kube-system' });
      expect(b.env.ANTREA_CLOUD_EKS).toBe('true');
    }
  });
});
