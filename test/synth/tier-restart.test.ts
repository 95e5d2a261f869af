import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { layerDirectoryOf } from '../../src/delivery/layer-paths';
import { VERIFY_IMAGE } from '../../src/model/clusterset';
import type { KubeObject } from '../../src/kube/kube-object';
import { example, revision, type Definition } from '../helpers/plan-revision';

const withTiers = (d: Definition, tiers: { name: string; priority: number }[]) => ((d.spec.tiers = tiers), d);
const bundlesOf = async (d: Definition) => (await revision({ 'cs.yaml': d })).outputs[0]!.bundles;
const restartJob = (objects: readonly KubeObject[]) => objects.filter((o) => o.kind === 'Job' && o.metadata.name.startsWith('antrea-clusterset-tier-restart'));

interface Container {
  image: string;
  command: string[];
  args?: string[];
}
const podOf = (job: KubeObject) =>
  (job.spec as { template: { spec: { initContainers: Container[]; containers: Container[]; serviceAccountName: string } } }).template.spec;

describe('a member restarts its antrea-mc-controller once its Tier set changes, from its own delivery', () => {
  it('every member with custom Tiers gets one Job named by its Tier set; a dedicated leader and members without Tiers get none', async () => {
    const d = withTiers(example('test-clusterset'), [
      { name: 'fleet-ops', priority: 60 },
      { name: 'fleet-apps', priority: 70 },
    ]);
    const bundles = await bundlesOf(d);
    for (const b of bundles) expect(restartJob(b.objects).length, b.clusterID).toBe(b.role === 'leader' ? 0 : 1);
    expect(bundles.flatMap((b) => restartJob(b.objects)).map((j) => j.metadata.name)).toEqual([
      expect.stringMatching(/^antrea-clusterset-tier-restart-[0-9a-f]{10}$/),
      expect.stringMatching(/^antrea-clusterset-tier-restart-[0-9a-f]{10}$/),
    ]);
    expect(restartJob((await bundlesOf(example('test-clusterset'))).flatMap((b) => b.objects))).toEqual([]);
  });

  it('its name follows the Tier set and its template: the same set in another order keeps it, another priority, Tier or image changes it', async () => {
    const name = async (tiers: { name: string; priority: number }[], edit: (d: Definition) => void = () => {}) => {
      const d = withTiers(example('test-clusterset'), tiers);
      edit(d);
      return restartJob((await bundlesOf(d)).find((b) => b.role === 'member')!.objects)[0]!.metadata.name;
    };
    const a = await name([
      { name: 'x', priority: 60 },
      { name: 'y', priority: 70 },
    ]);
    expect(
      await name([
        { name: 'y', priority: 70 },
        { name: 'x', priority: 60 },
      ]),
    ).toBe(a);
    expect(
      await name(
        [
          { name: 'x', priority: 60 },
          { name: 'y', priority: 70 },
        ],
        (d) => (d.spec.policies = []),
      ),
    ).toBe(a);
    expect(
      await name([
        { name: 'x', priority: 61 },
        { name: 'y', priority: 70 },
      ]),
    ).not.toBe(a);
    expect(await name([{ name: 'x', priority: 60 }])).not.toBe(a);
    // a changed template (its image) is a new Job: a Job's template is immutable (#38)
    expect(
      await name(
        [
          { name: 'x', priority: 60 },
          { name: 'y', priority: 70 },
        ],
        (d) => (d.spec.verify = { image: `mirror.example.com/kubectl:1.34.1@sha256:${'e'.repeat(64)}` }),
      ),
    ).not.toBe(a);
  });

  it("runs once after the Tiers exist, in its own unit after their layer (no hook), waiting for each Tier; the definition's image, with limits", async () => {
    const d = withTiers(example('test-clusterset'), [{ name: 'fleet-ops', priority: 60 }]);
    const bundles = await bundlesOf(d);
    const member = bundles.find((b) => b.clusterID === 'test-cluster-east')!;
    const [job] = restartJob(member.objects);
    expect(job!.metadata.namespace).toBe('kube-system');
    // a plain Job: a hook of the bundle's Application would make its sync wait for the ClusterSet (#38)
    expect(job!.metadata.annotations ?? {}).not.toHaveProperty('argocd.argoproj.io/hook');
    // its unit, tier-restart/, with its RBAC; not the Tiers' layer, which an unpullable image would hold
    for (const o of member.objects.filter((x) => x.metadata.name.startsWith('antrea-clusterset-tier-restart')))
      expect(layerDirectoryOf(o)).toBe('tier-restart');
    // a finished Job is kept: deleting it would make the engines create it again and restart again
    expect(job!.spec).not.toHaveProperty('ttlSecondsAfterFinished');
    const pod = podOf(job!);
    for (const c of [...pod.initContainers, ...pod.containers]) {
      expect(c.image).toBe(VERIFY_IMAGE);
      const { resources } = c as Container & { resources?: { requests?: Record<string, string>; limits?: Record<string, string> } };
      expect([Object.keys(resources?.requests ?? {}).sort(), Object.keys(resources?.limits ?? {}).sort()]).toEqual([
        ['cpu', 'memory'],
        ['cpu', 'memory'],
      ]);
    }
    expect([...pod.initContainers[0]!.command, ...(pod.initContainers[0]!.args ?? [])]).toEqual([
      'kubectl',
      'wait',
      '--for=create',
      '--timeout=-1s',
      'tiers.crd.antrea.io/fleet-ops',
    ]);
    expect([...pod.containers[0]!.command, ...(pod.containers[0]!.args ?? [])]).toEqual([
      'kubectl',
      '--namespace=kube-system',
      'rollout',
      'restart',
      'deployment/antrea-mc-controller',
      // a manager of its own, not kubectl-rollout, which Flux's clean-up of kubectl* managers takes over (tier-restart-unit.test.ts)
      '--field-manager=antrea-clusterset-tier-restart',
    ]);
  });

  it('RBAC: the Job may restart antrea-mc-controller in its Namespace and read its Tiers, nothing else', async () => {
    const member = (await bundlesOf(withTiers(example('test-clusterset'), [{ name: 'fleet-ops', priority: 60 }]))).find((b) => b.role === 'member')!;
    const sa = podOf(restartJob(member.objects)[0]!).serviceAccountName;
    const bindings = member.objects.filter(
      (o) => (o.kind === 'RoleBinding' || o.kind === 'ClusterRoleBinding') && (o.subjects as { name: string }[]).some((s) => s.name === sa),
    );
    const rules = bindings.flatMap((b) => {
      const ref = b.roleRef as { kind: string; name: string };
      return member.objects.find((o) => o.kind === ref.kind && o.metadata.name === ref.name)!.rules;
    });
    expect(rules).toEqual([
      { apiGroups: ['apps'], resources: ['deployments'], resourceNames: ['antrea-mc-controller'], verbs: ['get', 'patch'] },
      { apiGroups: ['crd.antrea.io'], resources: ['tiers'], resourceNames: ['fleet-ops'], verbs: ['get', 'list', 'watch'] },
    ]);
  });

  it("kubectl parses the Job's commands (the client on this machine, offline)", async () => {
    const member = (await bundlesOf(withTiers(example('test-clusterset'), [{ name: 'fleet-ops', priority: 60 }]))).find((b) => b.role === 'member')!;
    const pod = podOf(restartJob(member.objects)[0]!);
    // --help after the arguments makes kubectl validate the flags and print usage without a server
    for (const c of [pod.initContainers[0]!, pod.containers[0]!]) {
      const [, ...args] = [...c.command, ...(c.args ?? [])];
      expect(execFileSync('kubectl', [...args, '--help'], { encoding: 'utf8' })).toMatch(/^Usage:/m);
    }
  });
});
