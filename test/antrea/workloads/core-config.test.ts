import { LATEST_RELEASE } from '../../../src/antrea/releases';
import { describe, expect, test } from 'vitest';
import { parse } from 'yaml';
import { renderYamlConfig } from '../../../src/antrea/workloads/config-file';
import {
  antreaAgentConf,
  antreaConfigMap,
  antreaControllerConf,
  mcControllerConfig,
  mcControllerConfigMap,
  type AntreaOptions,
} from '../../../src/antrea/workloads';

const release = LATEST_RELEASE;
type Conf = Record<string, unknown>;
const files = (opts: AntreaOptions) => antreaConfigMap(opts).data as Record<string, string>;

describe('antrea-agent.conf and antrea-controller.conf', () => {
  test('defaults: gate section empty, multi-cluster off, geneve encap', () => {
    const agent: Conf = antreaAgentConf({ release });
    expect(agent.featureGates).toBeNull();
    expect(agent).toMatchObject({ trafficEncapMode: 'encap', tunnelType: 'geneve', tunnelPort: 0 });
    expect(agent.multicluster).toEqual({
      enableGateway: false,
      namespace: '',
      enableStretchedNetworkPolicy: false,
      enablePodToPodConnectivity: false,
      trafficEncryptionMode: 'none',
      wireGuard: { port: 51821 },
    });
    expect(antreaControllerConf({ release }).multicluster).toEqual({ enableStretchedNetworkPolicy: false });
  });

  test('options only touch the keys they own; the multi-cluster WireGuard port stays', () => {
    const mc = { enabled: true, enableGateway: true, trafficEncryptionMode: 'wireGuard' } as const;
    const agent: Conf = antreaAgentConf({ release, multicluster: mc });
    const defaults: Conf = antreaAgentConf({ release });
    expect(agent.multicluster).toEqual({ ...(defaults.multicluster as object), enableGateway: true, trafficEncryptionMode: 'wireGuard' });
    expect(antreaControllerConf({ release, multicluster: mc })).toMatchObject({
      featureGates: { Multicluster: true },
      multicluster: { enableStretchedNetworkPolicy: false },
    });
  });

  test('agentConfig is merged last and may add gates beside Multicluster', () => {
    const agent: Conf = antreaAgentConf({
      release,
      multicluster: { enabled: true },
      agentConfig: { featureGates: { Egress: false }, egress: { maxEgressIPsPerNode: 10 } },
    });
    expect(agent.featureGates).toEqual({ Multicluster: true, Egress: false });
    expect(agent.egress).toEqual({
      exceptCIDRs: null,
      maxEgressIPsPerNode: 10,
      snatFullyRandomPorts: null,
      uniqueMACForSubInterfaces: true,
    });
  });

  test('agentConfig wins even over keys the options set (the validate stage forbids that in definitions)', () => {
    expect(antreaAgentConf({ release, tunnelType: 'vxlan', agentConfig: { tunnelType: 'gre' } }).tunnelType).toBe('gre');
  });

  test('config files parse back to the data, as Go (YAML 1.1) reads them', () => {
    const opts: AntreaOptions = { release, agentConfig: { ovsBridge: 'no', tlsMinVersion: 'on', transportInterface: '0400' } };
    const data = files(opts);
    expect(parse(data['antrea-agent.conf']!, { version: '1.1' })).toEqual(antreaAgentConf(opts));
    expect(parse(data['antrea-controller.conf']!, { version: '1.1' })).toEqual(antreaControllerConf(opts));
    expect(data['antrea-agent.conf']).toContain('ovsBridge: "no"');
  });

  test('the CNI conflist is JSON', () => {
    expect(JSON.parse(files({ release })['antrea-cni.conflist']!)).toEqual({
      cniVersion: '0.3.0',
      name: 'antrea',
      plugins: [
        { type: 'antrea', ipam: { type: 'host-local' } },
        { type: 'portmap', capabilities: { portMappings: true } },
        { type: 'bandwidth', capabilities: { bandwidth: true } },
      ],
    });
  });

  test('renderYamlConfig never folds long strings', () => {
    const long = 'x'.repeat(200);
    expect(renderYamlConfig({ a: long })).toBe(`a: ${long}\n`);
  });
});

describe('controller_manager_config.yaml', () => {
  test.each<[string, Parameters<typeof mcControllerConfig>[0], Conf]>([
    ['defaults', {}, { serviceCIDR: '', podCIDRs: [''], gatewayIPPrecedence: 'private', endpointIPType: 'ClusterIP', enableStretchedNetworkPolicy: false }],
    ['an empty podCIDRs list is the upstream "none"', { podCIDRs: [] }, { podCIDRs: [''] }],
    [
      'member settings',
      { serviceCIDR: '10.96.0.0/20', podCIDRs: ['10.244.0.0/20'], gatewayIPPrecedence: 'public', endpointIPType: 'PodIP', enableStretchedNetworkPolicy: true },
      { serviceCIDR: '10.96.0.0/20', podCIDRs: ['10.244.0.0/20'], gatewayIPPrecedence: 'public', endpointIPType: 'PodIP', enableStretchedNetworkPolicy: true },
    ],
  ])('%s', (_, opts, expected) => {
    const conf = mcControllerConfig(opts);
    expect(conf).toMatchObject(expected);
    expect(conf).toMatchObject({
      apiVersion: 'multicluster.crd.antrea.io/v1alpha1',
      kind: 'MultiClusterConfig',
      health: { healthProbeBindAddress: ':8080' },
      metrics: { bindAddress: '0' },
      webhook: { port: 9443 },
    });
    const text = (mcControllerConfigMap('ns', opts).data as Record<string, string>)['controller_manager_config.yaml']!;
    expect(parse(text, { version: '1.1' })).toEqual(conf);
  });
});
