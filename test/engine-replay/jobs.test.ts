import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { stringify } from 'yaml';
import { VERIFY_IMAGE } from '../../src/model/clusterset';
import { tierRestartObjects } from '../../src/synth/objects/tier-restart';
import { requireTool } from '../helpers/tools';
import { ApiServer } from './kubernetes/api-server';
import { Fleet } from './antrea/controllers';
import { jsonpath } from './kubernetes/jsonpath';
import { fieldsOf, type Condition, type Obj, type WorkloadSpec } from './kubernetes/kube';
import { kubectl } from './kubernetes/kubectl';
import { serviceAccountUser } from './kubernetes/rbac';

/**
 * The Jobs' world (job-runner.ts, kubectl.ts, jsonpath.ts): the scripts' kubectl calls answered
 * as kubectl answers them, the containers run in busybox, the Job's status their exit codes.
 */
const REAL_KUBECTL = spawnSync('sh', ['-c', 'command -v kubectl'], { encoding: 'utf8' }).stdout.trim();
const tmp = mkdtempSync(join(process.env.CLUSTERSET_TEST_TMPDIR ?? tmpdir(), 'jobs-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const clusterSet: Obj = {
  apiVersion: 'multicluster.crd.antrea.io/v1alpha2',
  kind: 'ClusterSet',
  metadata: { name: 'cs', namespace: 'kube-system' },
  spec: { clusterID: 'east', leaders: [{ clusterID: 'north', server: 'https://n:6443', secret: 't' }] },
  status: {
    conditions: [{ type: 'Ready', status: 'True' }],
    clusterStatuses: [
      {
        clusterID: 'north',
        conditions: [
          { type: 'Ready', status: 'False', message: 'a "quoted" | piped message' },
          { type: 'IsLeader', status: 'True' },
        ],
      },
    ],
  },
};
const serviceImport: Obj = {
  apiVersion: 'multicluster.x-k8s.io/v1alpha1',
  kind: 'ServiceImport',
  metadata: { name: 'nginx', namespace: 'demo' },
  spec: { type: 'ClusterSetIP', ports: [{ port: 80, protocol: 'TCP' }] },
};

describe('jsonpath, as kubectl evaluates it', () => {
  // the expressions the verification's checks print with (src/verify/verifications.ts), and some edges;
  // the third column is what kubectl (1.32) printed for them
  const CASES: [string, Obj, string][] = [
    [
      '{.status.conditions[?(@.type=="Ready")].status}|{.status.clusterStatuses[0].conditions[?(@.type=="Ready")].status}|{.status.clusterStatuses[0].conditions[?(@.type=="IsLeader")].status}|{.status.clusterStatuses[0].conditions[?(@.type=="Ready")].message}',
      clusterSet,
      'True|False|True|a "quoted" | piped message',
    ],
    ['{.spec.ports[0].port}', serviceImport, '80'],
    ['{.spec.missing}-{.spec.ports[*].protocol}', serviceImport, '-TCP'],
    ['{.status.clusterStatuses[0].conditions[*].type}', clusterSet, 'Ready IsLeader'],
    ['{.spec.leaders[0]}', clusterSet, '{"clusterID":"north","secret":"t","server":"https://n:6443"}'],
  ];
  const haveKubectl = requireTool('jsonpath against kubectl', 'kubectl', REAL_KUBECTL !== '', 'compared with the recorded outputs only');

  test.each(CASES)('%s', (template, o, printed) => {
    const ours = jsonpath(template, o);
    expect(ours).toBe(printed);
    if (!haveKubectl) return;
    const file = join(tmp, 'o.yaml');
    writeFileSync(file, stringify(o));
    const real = spawnSync(REAL_KUBECTL, ['label', '--local', '-f', file, 'x-', '-o', `jsonpath=${template}`], {
      encoding: 'utf8',
      env: { ...process.env, KUBECONFIG: '/nonexistent' },
    });
    expect(real.status, real.stderr).toBe(0);
    expect(ours).toBe(real.stdout);
  });
});

/** A cluster with the CRDs the calls need, Ready Nodes and a running Antrea. */
function world() {
  const c = new ApiServer({ clusterID: 'east', nodes: ['w'], cni: 'other' });
  const crd = (group: string, kind: string, plural: string, scope = 'Namespaced'): Obj => ({
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${plural}.${group}` },
    spec: { group, scope, names: { kind, plural }, versions: [{ name: kind === 'ClusterSet' ? 'v1alpha2' : 'v1alpha1', served: true, storage: true }] },
  });
  c.put(crd('multicluster.crd.antrea.io', 'ClusterSet', 'clustersets'));
  c.put(crd('multicluster.x-k8s.io', 'ServiceImport', 'serviceimports'));
  c.put({
    ...crd('crd.antrea.io', 'Tier', 'tiers', 'Cluster'),
    spec: { ...fieldsOf(crd('crd.antrea.io', 'Tier', 'tiers', 'Cluster').spec), versions: [{ name: 'v1beta1', served: true, storage: true }] },
  });
  c.put({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'demo' } });
  c.put(structuredClone(clusterSet));
  const fleet = new Fleet([c]);
  fleet.settle();
  return { c, fleet };
}

const grant = (c: ApiServer, sa: string, rules: object[]) => {
  c.put({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: sa, namespace: 'kube-system' } });
  c.put({ apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name: sa }, rules });
  c.put({
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'ClusterRoleBinding',
    metadata: { name: sa },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: sa },
    subjects: [{ kind: 'ServiceAccount', name: sa, namespace: 'kube-system' }],
  });
};

describe('the kubectl stand-in (kubectl.ts): outputs and exit codes as kubectl’s, requests as the Pod’s ServiceAccount', () => {
  test('get: -o name, -o jsonpath, NotFound and Forbidden', () => {
    const { c } = world();
    grant(c, 'reader', [{ apiGroups: ['multicluster.crd.antrea.io'], resources: ['clustersets'], resourceNames: ['cs'], verbs: ['get'] }]);
    const user = serviceAccountUser('kube-system', 'reader');
    const run = (...args: string[]) => kubectl(c, user, 'kube-system', args, () => 'now');
    expect(run('get', 'clustersets.multicluster.crd.antrea.io', 'cs', '-n', 'kube-system', '-o', 'name')).toEqual({
      stdout: 'clusterset.multicluster.crd.antrea.io/cs\n',
      stderr: '',
      code: 0,
    });
    expect(run('get', 'clustersets.multicluster.crd.antrea.io', 'cs', '-o', 'jsonpath={.spec.clusterID}').stdout).toBe('east');
    // a name the Role does not list: 403, before the object is looked up
    expect(run('get', 'clustersets.multicluster.crd.antrea.io', 'other', '-n', 'kube-system', '-o', 'name')).toEqual({
      stdout: '',
      stderr:
        'Error from server (Forbidden): clustersets.multicluster.crd.antrea.io "other" is forbidden: User "system:serviceaccount:kube-system:reader" cannot get resource "clustersets" in API group "multicluster.crd.antrea.io" in the namespace "kube-system"\n',
      code: 1,
    });
    grant(c, 'imports', [{ apiGroups: ['multicluster.x-k8s.io'], resources: ['serviceimports'], verbs: ['get'] }]);
    expect(
      kubectl(
        c,
        serviceAccountUser('kube-system', 'imports'),
        'kube-system',
        ['get', 'serviceimports.multicluster.x-k8s.io', 'nginx', '-n', 'demo', '-o', 'name'],
        () => '',
      ),
    ).toEqual({
      stdout: '',
      stderr: 'Error from server (NotFound): serviceimports.multicluster.x-k8s.io "nginx" not found\n',
      code: 1,
    });
  });
});

/** A Job of one container running `script` in the image's shell, its script in a ConfigMap. */
function scriptJob(c: ApiServer, script: string, sa = 'reader'): Obj {
  c.put({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'script', namespace: 'kube-system' }, data: { 'run.sh': script } });
  const job: Obj = {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: { name: 'run', namespace: 'kube-system' },
    spec: {
      backoffLimit: 1,
      template: {
        spec: {
          serviceAccountName: sa,
          restartPolicy: 'Never',
          containers: [
            { name: 'run', image: 'alpine/k8s', command: ['/bin/sh', '/scripts/run.sh'], volumeMounts: [{ name: 'script', mountPath: '/scripts' }] },
          ],
          volumes: [{ name: 'script', configMap: { name: 'script' } }],
        },
      },
    },
  };
  c.put(job);
  return job;
}

const jobCondition = (c: ApiServer, name: string) => ((fieldsOf(c.get('batch', 'Job', 'kube-system', name)?.status).conditions ?? []) as Condition[])[0]?.type;

describe('a Job runs its containers (job-runner.ts): its status is their exit codes', () => {
  test('a script that exits 0 completes, one that exits 1 fails past its backoff limit; the log is what it printed', () => {
    const ok = world();
    grant(ok.c, 'reader', [{ apiGroups: ['multicluster.crd.antrea.io'], resources: ['clustersets'], resourceNames: ['cs'], verbs: ['get'] }]);
    scriptJob(
      ok.c,
      'set -u\nleader=$(kubectl get clustersets.multicluster.crd.antrea.io cs -n kube-system -o jsonpath={.spec.leaders[0].clusterID})\necho "leader $leader"\n',
    );
    ok.fleet.settle();
    expect(jobCondition(ok.c, 'run')).toBe('Complete');
    expect(ok.fleet.jobLogs.get('east/kube-system/run')).toBe('leader north\n');

    const failing = world();
    grant(failing.c, 'reader', []);
    scriptJob(failing.c, 'exit 1\n');
    for (let i = 0; i < 3; i++) failing.fleet.settle();
    expect(failing.c.get('batch', 'Job', 'kube-system', 'run')?.status).toMatchObject({
      failed: 2,
      conditions: [{ type: 'Failed', reason: 'BackoffLimitExceeded' }],
    });
  });

  test('the script’s kubectl is refused what its Role does not grant, and the script sees kubectl’s error', () => {
    const { c, fleet } = world();
    grant(c, 'reader', []);
    scriptJob(c, 'if kubectl get clustersets.multicluster.crd.antrea.io cs -n kube-system -o name; then exit 0; else exit 3; fi\n');
    fleet.settle();
    expect(fleet.jobLogs.get('east/kube-system/run')).toMatch(/Error from server \(Forbidden\)/);
    expect(fieldsOf(c.get('batch', 'Job', 'kube-system', 'run')?.status).failed).toBe(1);
  });

  test('each call is answered as it is made, from the cluster as it is then: a read after a write sees it, and each write happens once, in order', () => {
    const { c, fleet } = world();
    c.put({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'd', namespace: 'kube-system' },
      spec: { replicas: 1, template: { metadata: {}, spec: { containers: [{ name: 'c', image: 'nginx' }] } } },
    });
    grant(c, 'restarter', [{ apiGroups: ['apps'], resources: ['deployments'], verbs: ['get', 'patch'] }]);
    // the same read three times, the same write twice: each answered again, where it is made
    scriptJob(
      c,
      [
        "seen() { kubectl get deployment d -n kube-system -o 'jsonpath={.spec.template.metadata.annotations}'; echo; }",
        'echo "before: $(seen)"',
        'kubectl rollout restart deployment/d -n kube-system',
        'echo "after one: $(seen)"',
        'kubectl rollout restart deployment/d -n kube-system',
        'echo "after two: $(seen)"',
        '',
      ].join('\n'),
      'restarter',
    );
    fleet.settle();
    expect(jobCondition(c, 'run')).toBe('Complete');
    // the restarts' times: the runner's counter, one second per write
    expect(fleet.jobLogs.get('east/kube-system/run')).toBe(
      [
        'before: ',
        'deployment.apps/d restarted',
        'after one: {"kubectl.kubernetes.io/restartedAt":"2023-11-14T22:13:21Z"}',
        'deployment.apps/d restarted',
        'after two: {"kubectl.kubernetes.io/restartedAt":"2023-11-14T22:13:22Z"}',
        '',
      ].join('\n'),
    );
    expect(c.get('apps', 'Deployment', 'kube-system', 'd')?.metadata.generation).toBe(3);
  });

  test('the tier restart: kubectl wait --for=create keeps the Pod running until the Tier exists, then rollout restart patches the controller', () => {
    const { c, fleet } = world();
    c.put({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'kube-system' } });
    c.put({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'antrea-mc-controller', namespace: 'kube-system' },
      spec: { replicas: 1, template: { metadata: {}, spec: { containers: [{ name: 'c', image: 'antrea/antrea-mc-controller:v2.7.0' }] } } },
    });
    for (const o of tierRestartObjects({ namespace: 'kube-system', tiers: [{ name: 'fleet-ops', priority: 60 }], image: VERIFY_IMAGE }))
      c.put(structuredClone(o) as Obj);
    const job = c.list('Job')[0]!;
    fleet.settle();
    expect(c.getLike(job)?.status).toMatchObject({ active: 1 });
    expect(
      (c.get('apps', 'Deployment', 'kube-system', 'antrea-mc-controller')?.spec as WorkloadSpec | undefined)?.template.metadata!.annotations,
    ).toBeUndefined();
    c.put({ apiVersion: 'crd.antrea.io/v1beta1', kind: 'Tier', metadata: { name: 'fleet-ops' }, spec: { priority: 60 } });
    fleet.settle();
    expect(jobCondition(c, job.metadata.name)).toBe('Complete');
    expect(
      (c.get('apps', 'Deployment', 'kube-system', 'antrea-mc-controller')?.spec as WorkloadSpec | undefined)?.template.metadata!.annotations,
    ).toHaveProperty(['kubectl.kubernetes.io/restartedAt']);
  });
});
