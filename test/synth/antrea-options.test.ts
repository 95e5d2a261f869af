import { describe, expect, test } from 'vitest';
import { LATEST_RELEASE } from '../../src/antrea/releases';
import { ClusterSetSchema } from '../../src/model/clusterset';
import { effectiveClusters } from '../../src/model/effective';
import { antreaOptions } from '../../src/synth/parts/antrea-core';

const definition = ClusterSetSchema.parse({
  apiVersion: 'antrea-clusterset/v1alpha1',
  kind: 'ClusterSetDefinition',
  metadata: { name: 'cs' },
  spec: {
    antrea: { version: LATEST_RELEASE.version, imageRegistry: 'mirror.example.com/antrea', agentConfig: { defaultMTU: 1400 } },
    network: { podToPodConnectivity: true, encryption: 'wireGuard' },
    leader: { clusterID: 'north', server: 'https://n:6443' },
    clusters: [
      { clusterID: 'north', member: false },
      { clusterID: 'east', namespace: 'mc-east', network: { tunnelType: 'vxlan' } },
      { clusterID: 'eks', cloud: 'EKS', network: { trafficEncapMode: 'networkPolicyOnly' } },
    ],
  },
});
const clusters = effectiveClusters(definition);
const options = (id: string) => antreaOptions({ definition, clusters, release: LATEST_RELEASE, cluster: clusters.find((c) => c.clusterID === id)! });

describe('antrea options from effective settings', () => {
  test('a dedicated leader keeps Multi-cluster off in its agents', () => {
    expect(options('north').multicluster).toEqual({ enabled: false });
  });

  test('a member gets the gate, the Gateway, its own Namespace and the ClusterSet switches', () => {
    expect(options('east')).toMatchObject({
      imageRegistry: 'mirror.example.com/antrea',
      tunnelType: 'vxlan',
      agentConfig: { defaultMTU: 1400 },
      multicluster: {
        enabled: true,
        enableGateway: true,
        namespace: 'mc-east',
        enablePodToPodConnectivity: true,
        enableStretchedNetworkPolicy: false,
        trafficEncryptionMode: 'wireGuard',
      },
    });
  });

  test('an EKS cluster in networkPolicyOnly is built with the EKS specifics', () => {
    expect(options('eks')).toMatchObject({ cloud: 'EKS', trafficEncapMode: 'networkPolicyOnly' });
  });
});
