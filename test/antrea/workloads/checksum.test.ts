import { LATEST_RELEASE } from '../../../src/antrea/releases';
import { describe, expect, test } from 'vitest';
import { canonicalJson, objectChecksum, sha256Hex } from '../../../src/antrea/workloads/checksum';
import type { KubeObject } from '../../../src/kube/kube-object';
import {
  antreaConfigMap,
  antreaCoreObjects,
  leaderMcControllerObjects,
  mcControllerConfigMap,
  memberMcControllerObjects,
  type AntreaOptions,
} from '../../../src/antrea/workloads';

const release = LATEST_RELEASE;
const annotations = (o: KubeObject): Record<string, string> =>
  (o.spec as { template: { metadata: { annotations: Record<string, string> } } }).template.metadata.annotations;
const find = (objects: KubeObject[], kind: string, name: string): KubeObject => objects.find((o) => o.kind === kind && o.metadata.name === name)!;

describe('checksums', () => {
  test('sha256Hex is the hex digest', () => {
    expect(sha256Hex('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
  });

  test('canonical JSON ignores key order and undefined', () => {
    expect(canonicalJson({ b: 1, a: { d: [2, { f: 1, e: 0 }], c: undefined } })).toBe(canonicalJson({ a: { d: [2, { e: 0, f: 1 }] }, b: 1 }));
    expect(canonicalJson({ b: 1, a: 2 })).toBe('{"a":2,"b":1}');
  });

  test('same input gives the same bytes, on every call', () => {
    const opts: AntreaOptions = { release, multicluster: { enabled: true, enableGateway: true } };
    expect(JSON.stringify(antreaCoreObjects(opts))).toBe(JSON.stringify(antreaCoreObjects(opts)));
    expect(JSON.stringify(memberMcControllerObjects({ release }))).toBe(JSON.stringify(memberMcControllerObjects({ release })));
  });

  test('agent and controller carry the checksum of the rendered antrea-config', () => {
    const opts: AntreaOptions = { release, tunnelType: 'vxlan' };
    const objects = antreaCoreObjects(opts);
    const expected = objectChecksum(antreaConfigMap(opts));
    expect(objectChecksum(find(objects, 'ConfigMap', 'antrea-config'))).toBe(expected);
    expect(annotations(find(objects, 'DaemonSet', 'antrea-agent'))['checksum/config']).toBe(expected);
    expect(annotations(find(objects, 'Deployment', 'antrea-controller'))['checksum/config']).toBe(expected);
  });

  test.each<[string, AntreaOptions]>([
    ['the tunnel type', { release, tunnelType: 'vxlan' }],
    ['the Multicluster gate', { release, multicluster: { enabled: true } }],
    ['an agentConfig key', { release, agentConfig: { defaultMTU: 1450 } }],
    ['a controllerConfig key', { release, controllerConfig: { apiPort: 10449 } }],
  ])('a change of %s changes the checksum', (_, opts) => {
    const base = annotations(find(antreaCoreObjects({ release }), 'DaemonSet', 'antrea-agent'))['checksum/config'];
    const changed = annotations(find(antreaCoreObjects(opts), 'DaemonSet', 'antrea-agent'))['checksum/config'];
    expect(changed).not.toBe(base);
  });

  test('an image registry change keeps the config checksum', () => {
    const a = annotations(find(antreaCoreObjects({ release }), 'DaemonSet', 'antrea-agent'));
    const b = annotations(find(antreaCoreObjects({ release, imageRegistry: 'mirror/antrea' }), 'DaemonSet', 'antrea-agent'));
    expect(b['checksum/config']).toBe(a['checksum/config']);
  });

  test('mc-controller carries the checksum of its own ConfigMap', () => {
    const opts = { release, namespace: 'mc-member', serviceCIDR: '10.96.0.0/20' } as const;
    const deploy = find(memberMcControllerObjects(opts), 'Deployment', 'antrea-mc-controller');
    expect(annotations(deploy)['checksum/config']).toBe(objectChecksum(mcControllerConfigMap('mc-member', opts)));
    const other = find(memberMcControllerObjects({ ...opts, serviceCIDR: '10.96.16.0/20' }), 'Deployment', 'antrea-mc-controller');
    expect(annotations(other)['checksum/config']).not.toBe(annotations(deploy)['checksum/config']);
    const leader = find(leaderMcControllerObjects({ release, enableStretchedNetworkPolicy: true }), 'Deployment', 'antrea-mc-controller');
    expect(annotations(leader)['checksum/config']).not.toBe(
      annotations(find(leaderMcControllerObjects({ release }), 'Deployment', 'antrea-mc-controller'))['checksum/config'],
    );
  });

  describe('checksum/ipsec-secret', () => {
    const agentAnnotations = (opts: AntreaOptions) => annotations(find(antreaCoreObjects(opts), 'DaemonSet', 'antrea-agent'));

    test('absent without in-cluster IPsec', () => {
      expect(agentAnnotations({ release })).not.toHaveProperty('checksum/ipsec-secret');
      expect(agentAnnotations({ release, agentConfig: { trafficEncryptionMode: 'wireGuard' } })).not.toHaveProperty('checksum/ipsec-secret');
    });

    test('present with IPsec (the mode is case-insensitive, as the agent parses it)', () => {
      for (const mode of ['ipsec', 'IPsec']) {
        expect(agentAnnotations({ release, agentConfig: { trafficEncryptionMode: mode } })['checksum/ipsec-secret']).toMatch(/^[0-9a-f]{64}$/);
      }
    });

    test('follows the PSK Secret source, not the config', () => {
      const ipsec = { release, agentConfig: { trafficEncryptionMode: 'ipsec' } } as const;
      const source = (key: string) => ({ kind: 'ExternalSecret', spec: { data: [{ remoteRef: { key } }] } });
      const a = agentAnnotations({ ...ipsec, ipsecSecretSource: source('antrea/psk-v1') });
      const b = agentAnnotations({ ...ipsec, ipsecSecretSource: source('antrea/psk-v2') });
      const c = agentAnnotations({ ...ipsec, tunnelType: 'vxlan', ipsecSecretSource: source('antrea/psk-v1') });
      expect(a['checksum/ipsec-secret']).toBe(objectChecksum(source('antrea/psk-v1')));
      expect(b['checksum/ipsec-secret']).not.toBe(a['checksum/ipsec-secret']);
      expect(c['checksum/ipsec-secret']).toBe(a['checksum/ipsec-secret']);
      expect(c['checksum/config']).not.toBe(a['checksum/config']);
    });
  });
});
