import { LATEST_RELEASE } from '../../../src/antrea/releases';
import type { IPodSpec } from 'kubernetes-models/v1/PodSpec';
import { describe, expect, test } from 'vitest';
import { objectRef, type KubeObject } from '../../../src/kube/kube-object';
import { antreaCoreObjects, leaderMcControllerObjects, memberMcControllerObjects, type AntreaOptions } from '../../../src/antrea/workloads';

const release = LATEST_RELEASE;
const podSpec = (o: KubeObject): IPodSpec => (o.spec as { template: { spec: IPodSpec } }).template.spec;
const ANY_STRING: unknown = expect.any(String);
const find = (objects: KubeObject[], kind: string, name: string): KubeObject => objects.find((o) => o.kind === kind && o.metadata.name === name)!;

/** JSON round trip loses undefined, functions, class instances; plain data survives unchanged */
function expectPlainData(o: unknown, where: string): void {
  expect(JSON.parse(JSON.stringify(o)), where).toEqual(o);
  const walk = (v: unknown, path: string): void => {
    expect(v, `${where} ${path}`).not.toBeNull();
    expect(v, `${where} ${path}`).not.toBeUndefined();
    if (Array.isArray(v)) v.forEach((x, i) => walk(x, `${path}[${i}]`));
    else if (typeof v === 'object') {
      expect(Object.getPrototypeOf(v), `${where} ${path}`).toBe(Object.prototype);
      for (const [k, x] of Object.entries(v as object)) walk(x, `${path}.${k}`);
    }
  };
  walk(o, '');
}

const cases: [string, KubeObject[]][] = [
  ['core, defaults', antreaCoreObjects({ release })],
  [
    'core, everything on',
    antreaCoreObjects({
      release,
      trafficEncapMode: 'networkPolicyOnly',
      cloud: 'EKS',
      multicluster: { enabled: true, enableGateway: true, enableStretchedNetworkPolicy: true, trafficEncryptionMode: 'wireGuard' },
      agentConfig: { trafficEncryptionMode: 'ipsec' },
    }),
  ],
  ['leader', leaderMcControllerObjects({ release, namespace: 'mc-leader' })],
  ['member', memberMcControllerObjects({ release, namespace: 'mc-member', podCIDRs: ['10.244.0.0/20'] })],
];

describe.each(cases)('%s', (_, objects) => {
  test('objects are plain JSON data with no null or undefined field', () => {
    for (const o of objects) expectPlainData(o, objectRef(o));
  });

  test('apiVersion, kind and metadata.name on every object; keys are unique', () => {
    for (const o of objects) expect(o).toMatchObject({ apiVersion: ANY_STRING, kind: ANY_STRING, metadata: { name: ANY_STRING } });
    const keys = objects.map(objectRef);
    expect(new Set(keys).size).toBe(keys.length);
  });

  test('no caBundle: controllers inject it at runtime', () => {
    expect(JSON.stringify(objects)).not.toContain('caBundle');
  });
});

test('fresh objects on every call: callers may mutate what they get', () => {
  const a = antreaCoreObjects({ release });
  const volumes = (podSpec(find(a, 'DaemonSet', 'antrea-agent')).volumes as unknown[]).length;
  expect(volumes).toBeGreaterThan(0);
  (podSpec(find(a, 'DaemonSet', 'antrea-agent')).volumes as unknown[]).length = 0;
  expect(podSpec(find(antreaCoreObjects({ release }), 'DaemonSet', 'antrea-agent')).volumes).toHaveLength(volumes);
});

describe('networkPolicyOnly', () => {
  const objects = (opts: Partial<AntreaOptions>) => antreaCoreObjects({ release, ...opts });

  test.each<[string, Partial<AntreaOptions>, string[], string[]]>([
    ['encap', {}, ['install-cni'], ['antrea-agent', 'antrea-ovs']],
    ['networkPolicyOnly', { trafficEncapMode: 'networkPolicyOnly' }, [], ['install-cni', 'antrea-agent', 'antrea-ovs']],
  ])('%s: init containers %j, containers %j', (_, opts, init, containers) => {
    const spec = podSpec(find(objects(opts), 'DaemonSet', 'antrea-agent'));
    expect((spec.initContainers ?? []).map((c) => c.name)).toEqual(init);
    expect(spec.containers.map((c) => c.name)).toEqual(containers);
  });

  test('ANTREA_CLOUD_EKS only with cloud EKS', () => {
    const env = (opts: Partial<AntreaOptions>) =>
      podSpec(find(objects(opts), 'DaemonSet', 'antrea-agent')).containers.find((c) => c.name === 'antrea-agent')!.env;
    expect(env({ trafficEncapMode: 'networkPolicyOnly' })).not.toContainEqual({ name: 'ANTREA_CLOUD_EKS', value: 'true' });
    expect(env({ trafficEncapMode: 'networkPolicyOnly', cloud: 'EKS' })).toContainEqual({ name: 'ANTREA_CLOUD_EKS', value: 'true' });
  });

  test('the agent may read kube-proxy and kubeadm-config only in networkPolicyOnly', () => {
    const hasRule = (opts: Partial<AntreaOptions>) => JSON.stringify(find(objects(opts), 'ClusterRole', 'antrea-agent').rules).includes('kubeadm-config');
    expect(hasRule({})).toBe(false);
    expect(hasRule({ trafficEncapMode: 'networkPolicyOnly' })).toBe(true);
  });
});

describe('multi-cluster controllers', () => {
  test('a dual-role cluster gets leader and member controllers without a name collision', () => {
    const all = [
      ...leaderMcControllerObjects({ release }),
      ...memberMcControllerObjects({ release }),
      ...antreaCoreObjects({ release, multicluster: { enabled: true } }),
    ];
    const keys = all.map(objectRef);
    expect(new Set(keys).size).toBe(keys.length);
  });

  test('two leaders in one cluster: cluster-scoped names carry the Namespace', () => {
    const a = leaderMcControllerObjects({ release, namespace: 'team-a' }).filter((o) => !o.metadata.namespace);
    const b = leaderMcControllerObjects({ release, namespace: 'team-b' }).filter((o) => !o.metadata.namespace);
    expect(a.map((o) => o.metadata.name)).toEqual([
      'team-a-antrea-mc-controller-webhook-role',
      'team-a-antrea-mc-controller-webhook-rolebinding',
      'team-a-antrea-mc-mutating-webhook-configuration',
      'team-a-antrea-mc-validating-webhook-configuration',
    ]);
    expect(a.filter((o) => b.some((x) => objectRef(x) === objectRef(o)))).toEqual([]);
    for (const o of a.filter((o) => o.kind.endsWith('WebhookConfiguration'))) {
      expect(o.metadata.labels).toEqual({ app: 'antrea', role: 'leader', 'served-by': 'antrea-mc-controller', 'served-in': 'team-a' });
      for (const w of o.webhooks as { namespaceSelector: unknown; clientConfig: { service: unknown } }[]) {
        expect(w.namespaceSelector).toEqual({ matchLabels: { 'kubernetes.io/metadata.name': 'team-a' } });
        expect(w.clientConfig.service).toMatchObject({ name: 'antrea-mc-webhook-service', namespace: 'team-a' });
      }
    }
  });

  test.each([
    ['leader', leaderMcControllerObjects({ release }), 'leader', 'antrea-multicluster'],
    ['member', memberMcControllerObjects({ release }), 'member', 'kube-system'],
  ] as const)('%s controller: command, default Namespace, image', (_, objects, role, namespace) => {
    const deploy = find(objects, 'Deployment', 'antrea-mc-controller');
    expect(deploy.metadata.namespace).toBe(namespace);
    expect(podSpec(deploy).containers[0]).toMatchObject({
      command: ['/antrea-mc-controller', role],
      image: `antrea/antrea-mc-controller:${release.version}`,
    });
  });
});
