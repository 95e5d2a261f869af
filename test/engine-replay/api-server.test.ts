import { describe, expect, test } from 'vitest';
import { ApiServer } from './kubernetes/api-server';
import { Fleet } from './antrea/controllers';
import { fieldsOf, type Condition, type Obj } from './kubernetes/kube';

const crd = (group: string, kind: string, plural: string, scope = 'Namespaced'): Obj => ({
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: `${plural}.${group}` },
  spec: { group, names: { kind, plural }, scope, versions: [{ name: 'v1alpha1', served: true, storage: true }] },
});
const thing: Obj = { apiVersion: 'example.io/v1alpha1', kind: 'Thing', metadata: { name: 't', namespace: 'app' } };

describe('the API server model admits what kube-apiserver admits', () => {
  test('a custom resource needs its CRD, and a namespaced object its Namespace', () => {
    const c = new ApiServer({ clusterID: 'c', nodes: [], cni: 'other' });
    expect(c.apply(thing)).toEqual({ ok: false, error: 'no matches for kind "Thing" in version "example.io/v1alpha1"' });
    expect(c.apply(crd('example.io', 'Thing', 'things')).ok).toBe(true);
    expect(c.apply(thing)).toEqual({ ok: false, error: 'namespaces "app" not found' });
    expect(c.apply({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'app' } }).ok).toBe(true);
    expect(c.apply(thing, { dryRun: true })).toEqual({ ok: true, created: true });
    expect(c.getLike(thing)).toBeUndefined();
    expect(c.apply(thing).ok).toBe(true);
  });

  test('a webhook that does not answer refuses what it intercepts (failurePolicy Fail by default)', () => {
    const c = new ApiServer({ clusterID: 'c', nodes: [], cni: 'other', namespaces: ['app'] });
    new Fleet([c]);
    c.apply(crd('example.io', 'Thing', 'things'));
    c.apply({
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingWebhookConfiguration',
      metadata: { name: 'v' },
      webhooks: [
        {
          name: 'vthing',
          rules: [{ apiGroups: ['example.io'], resources: ['things'], operations: ['CREATE'] }],
          clientConfig: { service: { namespace: 'app', name: 'svc' } },
        },
      ],
    });
    expect(c.apply(thing)).toMatchObject({ ok: false, error: expect.stringContaining('failed calling webhook "vthing"') as unknown });
  });

  test('a ValidatingAdmissionPolicy is evaluated in CEL, and only from Kubernetes 1.30', () => {
    const policy: Obj = {
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingAdmissionPolicy',
      metadata: { name: 'p' },
      spec: {
        matchConstraints: { resourceRules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['nodes'] }] },
        validations: [{ expression: "!has(object.metadata.annotations) || !('x' in object.metadata.annotations)" }],
      },
    };
    const binding: Obj = {
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingAdmissionPolicyBinding',
      metadata: { name: 'p' },
      spec: { policyName: 'p' },
    };
    const old = new ApiServer({ clusterID: 'old', nodes: [], cni: 'other', kubernetesMinor: 29 });
    expect(old.apply(policy)).toMatchObject({ ok: false, error: expect.stringContaining('no matches for kind "ValidatingAdmissionPolicy"') as unknown });
    const c = new ApiServer({ clusterID: 'c', nodes: ['n1'], cni: 'other' });
    expect(c.apply(policy).ok && c.apply(binding).ok).toBe(true);
    const node = (name: string): Obj => ({ apiVersion: 'v1', kind: 'Node', metadata: { name, annotations: { x: 'true' } } });
    expect(c.apply(node('n1')).ok).toBe(true); // an update of a live Node
    expect(c.apply(node('typo'))).toMatchObject({ ok: false, error: expect.stringContaining('admission policy "p" denied') as unknown });
  });
});

describe('the controllers model', () => {
  test('a kubeadm cluster: Nodes are NotReady until the agent runs, and a workload without the not-ready toleration waits for them', () => {
    const c = new ApiServer({ clusterID: 'c', nodes: ['w'], cni: 'none' });
    const fleet = new Fleet([c]);
    const deployment: Obj = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'antrea-controller', namespace: 'kube-system' },
      spec: {
        replicas: 1,
        template: { metadata: { labels: { app: 'x' } }, spec: { hostNetwork: true, tolerations: [{ key: 'CriticalAddonsOnly', operator: 'Exists' }] } },
      },
    };
    c.apply(deployment);
    fleet.settle();
    expect(fieldsOf(c.getLike(deployment)!.status).availableReplicas).toBe(0);
    c.apply({
      apiVersion: 'apps/v1',
      kind: 'DaemonSet',
      metadata: { name: 'antrea-agent', namespace: 'kube-system' },
      spec: { template: { metadata: { labels: { app: 'agent' } }, spec: { hostNetwork: true, tolerations: [{ operator: 'Exists', effect: 'NoSchedule' }] } } },
    });
    fleet.settle();
    expect((fieldsOf(c.get('v1', 'Node', undefined, 'w')!.status).conditions as Condition[])[0]!.status).toBe('True');
    expect(fieldsOf(c.getLike(deployment)!.status).availableReplicas).toBe(1);
  });
});
