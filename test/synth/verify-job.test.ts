import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { compile } from '../../src/pipeline/compile';
import { VERIFY_IMAGE } from '../../src/model/clusterset';
import { layerDirectoryOf } from '../../src/delivery/layer-paths';
import type { KubeObject } from '../../src/kube/kube-object';
import { notGatewayHa } from '../helpers/gateway-ha';
import { fleet } from '../../bench/fleet';
import { MAX_GATEWAY_PEERS } from '../../src/model/gateways';

const DEFINITION = join(import.meta.dirname, '../fixtures/verify/definition.yaml');
const tmp = mkdtempSync(join(process.env.CLUSTERSET_TEST_TMPDIR ?? tmpdir(), 'verify-job-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

interface Definition {
  spec: { clusters: { member?: boolean }[]; services: object[] };
}
interface PodSpec {
  hostNetwork?: boolean;
  containers: { image: string; resources: { limits: object }; securityContext: object }[];
  volumes: object[];
}
type Job = KubeObject & { spec: { template: { spec: PodSpec } } };

/** The definition with a change, compiled; the verification objects per cluster. */
async function verification(edit: (d: Definition) => void = () => {}) {
  const definition = parse(readFileSync(DEFINITION, 'utf8')) as Definition;
  edit(definition);
  const file = join(tmp, `${Math.random().toString(36).slice(2)}.yaml`);
  writeFileSync(file, stringify(definition));
  const { outputs, diagnostics } = await compile({ files: [file] });
  expect(notGatewayHa(diagnostics)).toEqual([]);
  return new Map(outputs[0]!.bundles.map((b) => [b.clusterID, b.objects.filter((o) => o.metadata.name.startsWith('antrea-clusterset-verify-'))]));
}

const scriptOf = (objects: readonly KubeObject[]) => (objects.find((o) => o.kind === 'ConfigMap')!.data as Record<string, string>)['verify.sh']!;
const jobOf = (objects: readonly KubeObject[]) => objects.find((o) => o.kind === 'Job') as Job;

describe('the verification Job', () => {
  it('every member gets one, a dedicated leader none', async () => {
    const dedicated = await verification((d) => (d.spec.clusters[0]!.member = false));
    expect(dedicated.get('north')).toEqual([]);
    for (const id of ['east', 'west'])
      expect(
        dedicated
          .get(id)!
          .map((o) => o.kind)
          .sort(),
      ).toEqual(['ClusterRole', 'ClusterRoleBinding', 'ConfigMap', 'Job', 'Role', 'RoleBinding', 'ServiceAccount']);
  });

  const byRule = (a: object, b: object) => {
    const key = (r: object) => {
      const x = r as { apiGroups: string[]; resources: string[]; verbs: string[] };
      return `${x.apiGroups.join()}/${x.resources.join()}/${x.verbs.join()}`;
    };
    return key(a).localeCompare(key(b));
  };
  it('reads only what its checks read: get, by name, a list of its Gateways; and waits for its ClusterSet by name', async () => {
    const east = (await verification()).get('east')!;
    const rules = east
      .filter((o) => o.kind === 'Role' || o.kind === 'ClusterRole')
      .flatMap((o) => (o as unknown as { rules: object[] }).rules)
      .sort(byRule);
    expect(rules).toEqual(
      [
        { apiGroups: ['multicluster.crd.antrea.io'], resources: ['clustersets'], resourceNames: ['verify-clusterset'], verbs: ['get'] },
        { apiGroups: ['multicluster.crd.antrea.io'], resources: ['gateways'], resourceNames: ['east-node-1', 'east-node-2'], verbs: ['get'] },
        // exactly one Gateway (#51): a list cannot be limited to names, so the Role's Namespace limits it
        { apiGroups: ['multicluster.crd.antrea.io'], resources: ['gateways'], verbs: ['list'] },
        // the other members' ClusterInfo as this member imported it (#51)
        {
          apiGroups: ['multicluster.crd.antrea.io'],
          resources: ['clusterinfoimports'],
          resourceNames: ['north-clusterinfo', 'west-clusterinfo'],
          verbs: ['get'],
        },
        { apiGroups: ['multicluster.x-k8s.io'], resources: ['serviceimports'], resourceNames: ['api', 'nginx'], verbs: ['get'] },
        // kubectl wait on the named ClusterSet lists and watches it through a metadata.name field selector
        { apiGroups: ['multicluster.crd.antrea.io'], resources: ['clustersets'], resourceNames: ['verify-clusterset'], verbs: ['list', 'watch'] },
      ].sort(byRule),
    );
    // the list and the imports are the member Namespace's: a Role, never the ClusterRole
    const role = east.find((o) => o.kind === 'Role') as unknown as { metadata: { namespace: string }; rules: { resources: string[] }[] };
    expect([role.metadata.namespace, role.rules.filter((r) => r.resources.includes('clusterinfoimports') || r.resources.includes('gateways')).length]).toEqual([
      'kube-system',
      3,
    ]);
    const sa = east.find((o) => o.kind === 'ServiceAccount')!.metadata.name;
    for (const b of east.filter((o) => o.kind.endsWith('Binding')))
      expect((b as unknown as { subjects: unknown }).subjects).toEqual([{ kind: 'ServiceAccount', name: sa, namespace: 'kube-system' }]);
  });

  it('a pinned image, limits, no privilege, no hook, in its own unit verify/ (each engine syncs it on its own, and nothing waits for it)', async () => {
    const job = jobOf((await verification()).get('west')!);
    expect(VERIFY_IMAGE).toMatch(/@sha256:[0-9a-f]{64}$/);
    const pod = job.spec.template.spec;
    expect(pod.containers[0]!.image).toBe(VERIFY_IMAGE);
    expect(pod.containers[0]!.resources.limits).toEqual({ cpu: '200m', memory: '128Mi' });
    expect(pod.containers[0]!.securityContext).toEqual({ allowPrivilegeEscalation: false, readOnlyRootFilesystem: true, capabilities: { drop: ['ALL'] } });
    expect(pod.hostNetwork).toBeUndefined();
    // a plain Job: a PostSync hook would make each sync of the bundle wait for the ClusterSet (#38)
    expect(job.metadata.annotations ?? {}).not.toHaveProperty('argocd.argoproj.io/hook');
    // its checks start once the ClusterSet exists and is connected, as Flux's dependsOn would have it
    expect((pod as unknown as { initContainers: { args: string[] }[] }).initContainers.map((c) => c.args.slice(2, 3))).toEqual([
      ['--for=create'],
      ['--for=jsonpath={.status.conditions[?(@.type=="Ready")].status}=True'],
    ]);
    for (const o of (await verification()).get('west')!) expect(layerDirectoryOf(o)).toBe('verify');
    expect(pod.volumes).toContainEqual({ name: 'script', configMap: { name: job.metadata.name } });
  });

  it('a dual-role leader waits for no Service, not even one it exports (the members wait for the leader)', async () => {
    const script = scriptOf((await verification()).get('north')!);
    expect(script).not.toContain('serviceimports.multicluster.x-k8s.io');
    // nor for the members' ClusterInfo (#51): `clusterset status` checks the leader's imports
    expect(script).not.toContain('clusterinfoimports');
    expect(script).toContain('gateway-elected');
    expect(scriptOf((await verification()).get('west')!)).toContain(' api -n shop');
  });

  it('is named by what it verifies: the same definition the same name, a new check a new Job', async () => {
    const [a, b] = [await verification(), await verification()];
    const c = await verification((d) => d.spec.services.push({ name: 'db', namespace: 'shop', exportFrom: ['west'] }));
    const name = (m: Map<string, KubeObject[]>, id: string) => jobOf(m.get(id)!).metadata.name;
    expect(name(a, 'east')).toBe(name(b, 'east'));
    expect(name(c, 'east')).not.toBe(name(a, 'east'));
    expect(name(a, 'east')).toMatch(/^antrea-clusterset-verify-[0-9a-f]{10}$/);
  });

  it('its script is valid sh', async () => {
    for (const [, objects] of await verification()) expect(spawnSync('sh', ['-n', '-c', scriptOf(objects)]).status).toBe(0);
  });
});

describe('spec.verify', () => {
  it('an image not pinned by digest is a schema error at its line; job: false removes the verification', async () => {
    const definition = parse(readFileSync(DEFINITION, 'utf8')) as Definition & { spec: { verify?: object } };
    definition.spec.verify = { image: 'docker.io/alpine/k8s:latest' };
    const file = join(tmp, 'unpinned.yaml');
    writeFileSync(file, stringify(definition));
    const { diagnostics } = await compile({ files: [file] });
    expect(diagnostics.map((d) => [d.code, d.path.join('.')])).toEqual([['schema', 'spec.verify.image']]);
    // #37 item 4: a pinned image with a bidi override or a control character in its name
    for (const image of ['docker.io/alpine/k8s\u202e:1.34', 'docker.io/alpine/k8s\u001b[2J:1.34']) {
      definition.spec.verify = { image: `${image}@sha256:${'a'.repeat(64)}` };
      writeFileSync(file, stringify(definition));
      expect((await compile({ files: [file] })).diagnostics.map((d) => [d.code, d.path.join('.')])).toEqual([['schema', 'spec.verify.image']]);
    }
    const off = await verification((d) => ((d as Definition & { spec: { verify?: object } }).spec.verify = { job: false }));
    for (const [, objects] of off) expect(objects).toEqual([]);
  });
});

describe('clusterinfo-imported, bounded by MAX_GATEWAY_PEERS', () => {
  /** Each member's number of clusterinfo-imported checks in its verification script, for a fleet of `count` clusters (a dedicated leader and count - 1 members, one candidate each). */
  async function peerChecks(count: number): Promise<number[]> {
    const file = join(tmp, `fleet-${count}.yaml`);
    writeFileSync(file, stringify(fleet(count)));
    const { outputs, diagnostics } = await compile({ files: [file] });
    expect(notGatewayHa(diagnostics)).toEqual([]);
    return outputs[0]!.bundles
      .filter((b) => b.clusterID !== 'cluster-0')
      .map((b) => scriptOf(b.objects.filter((o) => o.metadata.name.startsWith('antrea-clusterset-verify-'))).split('clusterinfoimports.').length - 1);
  }

  // a script and a Role that grow with the ClusterSet made its output grow with its square
  it.each([
    ['two members: each compares with the other', 3, 1],
    ['MAX + 1 members: each compares with every other one', MAX_GATEWAY_PEERS + 2, MAX_GATEWAY_PEERS],
    ['MAX + 2 members: none does (status compares them)', MAX_GATEWAY_PEERS + 3, 0],
  ])('%s', async (_, count, checks) => {
    const perMember = await peerChecks(count);
    expect(perMember).toHaveLength(count - 1);
    expect(new Set(perMember)).toEqual(new Set([checks]));
  });
});
