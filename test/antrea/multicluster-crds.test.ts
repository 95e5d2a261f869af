import Ajv from 'ajv';
import { describe, expect, test } from 'vitest';
import { crdManifest, crdName, type CrdModel } from '../../src/antrea/crd';
import type { Schema } from '../../src/antrea/schema';
import { LATEST_RELEASE } from '../../src/antrea/releases';
import { without } from '../helpers/objects';

// the newest release's models (the conformance tests hold every release to upstream)
const { leader: leaderCrds, member: memberCrds } = LATEST_RELEASE.crds;
const model = (kind: string): CrdModel => [...leaderCrds, ...memberCrds].find((m) => m.kind === kind)!;
const [clusterSet, resourceExport, resourceImport, serviceImport] = ['ClusterSet', 'ResourceExport', 'ResourceImport', 'ServiceImport'].map(model) as [
  CrdModel,
  CrdModel,
  CrdModel,
  CrdModel,
];

// The model is also the validator: compile a version's schema with ajv, ignoring the
// x-kubernetes-* keywords (the API server's business) and formats (not checked here).
const ajv = new Ajv({ strict: false, validateFormats: false, allErrors: true });
const validator = (m: CrdModel, version: string) => {
  const v = m.versions.find((x) => x.name === version);
  if (!v) throw new Error(`${m.kind} has no version ${version}`);
  return ajv.compile(v.schema);
};

const memberClusterSet = {
  apiVersion: 'multicluster.crd.antrea.io/v1alpha2',
  kind: 'ClusterSet',
  metadata: { name: 'test-clusterset', namespace: 'kube-system' },
  spec: {
    clusterID: 'east',
    namespace: 'antrea-multicluster',
    leaders: [{ clusterID: 'leader', server: 'https://172.18.0.1:6443', secret: 'member-east-token' }],
  },
};

describe('multi-cluster CRD sets', () => {
  test('leader manifest: ClusterSet, MemberClusterAnnounce, ResourceExport, ResourceImport', () => {
    expect(leaderCrds.map(crdName).sort()).toEqual([
      'clustersets.multicluster.crd.antrea.io',
      'memberclusterannounces.multicluster.crd.antrea.io',
      'resourceexports.multicluster.crd.antrea.io',
      'resourceimports.multicluster.crd.antrea.io',
    ]);
  });

  test('member manifest: ClusterInfoImport, ClusterSet, Gateway, LabelIdentity and the mcs-api pair', () => {
    expect(memberCrds.map(crdName).sort()).toEqual([
      'clusterinfoimports.multicluster.crd.antrea.io',
      'clustersets.multicluster.crd.antrea.io',
      'gateways.multicluster.crd.antrea.io',
      'labelidentities.multicluster.crd.antrea.io',
      'serviceexports.multicluster.x-k8s.io',
      'serviceimports.multicluster.x-k8s.io',
    ]);
  });

  test('ClusterSet is one model shared by both sets, so dual-role bundles can dedupe it', () => {
    expect(leaderCrds.filter((m) => m.kind === 'ClusterSet')).toEqual([clusterSet]);
    expect(memberCrds.find((m) => m.kind === 'ClusterSet')).toBe(clusterSet);
  });

  test('only the Antrea-generated CRDs carry the controller-gen stamp; all are labelled app=antrea', () => {
    for (const m of new Set([...leaderCrds, ...memberCrds])) {
      expect(m.labels).toEqual({ app: 'antrea' });
      const stamped = m.annotations?.['controller-gen.kubebuilder.io/version'];
      expect(stamped, m.kind).toBe(m.group === 'multicluster.x-k8s.io' ? undefined : 'v0.21.0');
    }
  });

  test('rendered CRDs carry no prose', () => {
    const descriptions = (v: unknown): number =>
      Array.isArray(v)
        ? v.reduce((n: number, x) => n + descriptions(x), 0)
        : v && typeof v === 'object'
          ? Object.entries(v).reduce((n, [k, x]) => n + (k === 'description' && typeof x === 'string' ? 1 : descriptions(x)), 0)
          : 0;
    for (const m of new Set([...leaderCrds, ...memberCrds])) expect(descriptions(crdManifest(m)), m.kind).toBe(0);
  });
});

describe('ClusterSet', () => {
  test('v1alpha2 is the only storage version; v1alpha1 is still served; no conversion webhook', () => {
    expect(clusterSet.versions.map((v) => [v.name, v.served, v.storage])).toEqual([
      ['v1alpha1', true, false],
      ['v1alpha2', true, true],
    ]);
    expect(clusterSet.conversion).toBeUndefined();
  });

  test('v1alpha2 spec requires clusterID and exactly one leader', () => {
    const spec = clusterSet.versions[1]!.schema.properties!.spec!;
    expect(spec.required).toEqual(['clusterID', 'leaders']);
    expect(spec.properties!.leaders).toMatchObject({ minItems: 1, maxItems: 1 });
    // the legacy members list is gone in v1alpha2
    expect(spec.properties!.members).toBeUndefined();
  });

  test('the v1alpha2 validator accepts a member ClusterSet and rejects broken ones', () => {
    const validate = validator(clusterSet, 'v1alpha2');
    expect(validate(memberClusterSet), JSON.stringify(validate.errors)).toBe(true);

    expect(validate({ ...memberClusterSet, spec: without(memberClusterSet.spec, 'clusterID') })).toBe(false);

    const twoLeaders = [...memberClusterSet.spec.leaders, { clusterID: 'other' }];
    expect(validate({ ...memberClusterSet, spec: { ...memberClusterSet.spec, leaders: twoLeaders } })).toBe(false);
    expect(validate({ ...memberClusterSet, spec: { ...memberClusterSet.spec, leaders: [] } })).toBe(false);
  });

  test('v1alpha1 does not require clusterID', () => {
    const spec = without(memberClusterSet.spec, 'clusterID');
    expect(validator(clusterSet, 'v1alpha1')({ ...memberClusterSet, apiVersion: 'multicluster.crd.antrea.io/v1alpha1', spec })).toBe(true);
  });
});

describe('ResourceExport and ResourceImport', () => {
  const acnpExport = (rule: Record<string, unknown>) => ({
    apiVersion: 'multicluster.crd.antrea.io/v1alpha1',
    kind: 'ResourceExport',
    metadata: { name: 'strict-ns-isolation', namespace: 'antrea-multicluster' },
    spec: {
      kind: 'AntreaClusterNetworkPolicy',
      name: 'strict-ns-isolation',
      clusterNetworkPolicy: {
        priority: 1,
        tier: 'securityops',
        appliedTo: [{ namespaceSelector: {} }],
        ingress: [rule],
      },
    },
  });

  test('a replicated policy needs a priority and an action on every rule', () => {
    const validate = validator(resourceExport, 'v1alpha1');
    const rule = { action: 'Pass', from: [{ namespaces: { match: 'Self' } }], name: 'PassFromSameNS' };
    expect(validate(acnpExport(rule)), JSON.stringify(validate.errors)).toBe(true);
    expect(validate(acnpExport(without(rule, 'action')))).toBe(false);
    const noPriority = acnpExport(rule);
    delete (noPriority.spec.clusterNetworkPolicy as Record<string, unknown>).priority;
    expect(validate(noPriority)).toBe(false);
  });

  test("the policy payload has one shape in both kinds, under Antrea's json names", () => {
    const spec = (m: CrdModel): Record<string, Schema> => m.versions[0]!.schema.properties!.spec!.properties!;
    expect(spec(resourceImport).clusternetworkpolicy).toEqual(spec(resourceExport).clusterNetworkPolicy);
    expect(spec(resourceImport).clusterinfo).toEqual(spec(resourceExport).clusterInfo);
    expect(spec(resourceImport).endpoints).toEqual(spec(resourceExport).endpoints);
  });

  test('ResourceImport embeds the newer ServiceImport (two IPs), the member CRD the older one (one IP)', () => {
    const ips = (s: Schema) => s.properties!.spec!.properties!.ips!.maxItems;
    expect(ips(resourceImport.versions[0]!.schema.properties!.spec!.properties!.serviceImport!)).toBe(2);
    expect(ips(serviceImport.versions[0]!.schema)).toBe(1);
  });
});
