import { describe, expect, test } from 'vitest';
import type { Diagnostic } from '../../../src/diagnostics/diagnostic';
import { clusterInTwoDefinitions } from '../../../src/validate/rules/cluster-in-two-definitions';
import { LATEST } from '../../helpers/releases';
import { at, definitionText, runFleetRule } from '../../helpers/rule-tester';

const argocd = (id: string, destination: string, cidr: string) =>
  `    - clusterID: ${id}\n      serviceCIDR: ${cidr}\n      delivery: { argocd: ${destination} }\n`;

const spec = (leader: string, clusters: string, delivery = '  delivery: { argocd: { repoURL: https://git.example.com/r.git } }\n') =>
  `spec:\n  antrea: { version: ${LATEST} }\n  leader: { clusterID: ${leader}, server: https://10.0.0.1:6443 }\n  clusters:\n${clusters}${delivery}`;

const run = (files: Record<string, string>): Diagnostic[] => runFleetRule(clusterInTwoDefinitions, files);

const cases: { name: string; files: Record<string, string>; expected: { at: string; related: string[] }[] }[] = [
  {
    name: 'separate fleets: nothing',
    files: {
      'a.yaml': definitionText('a', spec('a1', argocd('a1', '{ name: a1 }', '10.96.0.0/16'))),
      'b.yaml': definitionText('b', spec('b1', argocd('b1', '{ name: b1 }', '10.97.0.0/16'))),
    },
    expected: [],
  },
  {
    name: 'the same cluster ID',
    files: {
      'a.yaml': definitionText('a', spec('east', '    - { clusterID: east, serviceCIDR: 10.96.0.0/16 }\n', '')),
      'b.yaml': definitionText('b', spec('east', '    - { clusterID: east, serviceCIDR: 10.97.0.0/16 }\n', '')),
    },
    expected: [{ at: 'b.yaml:9:20', related: ['a.yaml:9:20'] }],
  },
  {
    name: 'the same cluster ID for two Argo CD destinations: two clusters',
    files: {
      'a.yaml': definitionText('a', spec('east', argocd('east', '{ name: east-a }', '10.96.0.0/16'))),
      'b.yaml': definitionText('b', spec('east', argocd('east', '{ name: east-b }', '10.96.0.0/16'))),
    },
    expected: [],
  },
  {
    name: 'the same Argo CD destination name under another cluster ID',
    files: {
      'a.yaml': definitionText('a', spec('east', argocd('east', '{ name: prod-1 }', '10.96.0.0/16'))),
      'b.yaml': definitionText('b', spec('west', argocd('west', '{ name: prod-1 }', '10.97.0.0/16'))),
    },
    expected: [{ at: 'b.yaml:11:27', related: ['a.yaml:11:27'] }],
  },
  {
    name: 'the same Argo CD server URL (a trailing slash is the same server)',
    files: {
      'a.yaml': definitionText('a', spec('east', argocd('east', '{ server: "https://10.1.1.1:6443" }', '10.96.0.0/16'))),
      'b.yaml': definitionText('b', spec('west', argocd('west', '{ server: "https://10.1.1.1:6443/" }', '10.97.0.0/16'))),
    },
    expected: [{ at: 'b.yaml:11:27', related: ['a.yaml:11:27'] }],
  },
  {
    name: 'the same destination name in two Argo CD instances: two clusters',
    files: {
      'a.yaml': definitionText('a', spec('east', argocd('east', '{ name: in-cluster }', '10.96.0.0/16'))),
      'b.yaml': definitionText(
        'b',
        spec(
          'west',
          argocd('west', '{ name: in-cluster }', '10.97.0.0/16'),
          '  delivery: { argocd: { namespace: argocd-b, repoURL: https://git.example.com/r.git } }\n',
        ),
      ),
    },
    expected: [],
  },
  {
    // the built-in destination is the cluster each Argo CD runs in (delivery/argocd/destinations.ts)
    name: 'the in-cluster server of two Argo CD instances: two clusters',
    files: {
      'a.yaml': definitionText('a', spec('east', argocd('east', '{ server: https://kubernetes.default.svc }', '10.96.0.0/16'))),
      'b.yaml': definitionText(
        'b',
        spec(
          'west',
          argocd('west', '{ server: https://kubernetes.default.svc }', '10.97.0.0/16'),
          '  delivery: { argocd: { namespace: argocd-b, repoURL: https://git.example.com/r.git } }\n',
        ),
      ),
    },
    expected: [],
  },
  {
    name: 'in-cluster by name in one definition and by server in the other, in one Argo CD',
    files: {
      'a.yaml': definitionText('a', spec('east', argocd('east', '{ name: in-cluster }', '10.96.0.0/16'))),
      'b.yaml': definitionText('b', spec('west', argocd('west', '{ server: https://kubernetes.default.svc }', '10.97.0.0/16'))),
    },
    expected: [{ at: 'b.yaml:11:27', related: ['a.yaml:11:27'] }],
  },
  {
    name: 'the same hub Flux kubeconfig Secret',
    files: {
      'a.yaml': definitionText(
        'a',
        spec(
          'hub',
          '    - { clusterID: hub, serviceCIDR: 10.96.0.0/16 }\n    - { clusterID: east, serviceCIDR: 10.97.0.0/16, delivery: { flux: { kubeConfigSecretRef: { name: east-kc } } } }\n',
          '  delivery: { flux: { sourceRef: { name: repo } } }\n',
        ),
      ),
      'b.yaml': definitionText(
        'b',
        spec(
          'hub2',
          '    - { clusterID: hub2, serviceCIDR: 10.98.0.0/16 }\n    - { clusterID: east2, serviceCIDR: 10.99.0.0/16, delivery: { flux: { kubeConfigSecretRef: { name: east-kc } } } }\n',
          '  delivery: { flux: { sourceRef: { name: repo } } }\n',
        ),
      ),
    },
    expected: [{ at: 'b.yaml:10:95', related: ['a.yaml:10:94'] }],
  },
  {
    name: 'a shared cluster: the other clusters of both ClusterSets must not overlap',
    files: {
      'a.yaml': definitionText('a', spec('hub', argocd('hub', '{ name: hub }', '10.96.0.0/16') + argocd('east', '{ name: east }', '10.100.0.0/16'))),
      'b.yaml': definitionText('b', spec('hub', argocd('hub', '{ name: hub }', '10.96.0.0/16') + argocd('west', '{ name: west }', '10.100.0.0/16'))),
    },
    expected: [
      { at: 'b.yaml:9:18', related: ['a.yaml:9:18'] },
      { at: 'b.yaml:13:20', related: ['a.yaml:13:20'] },
    ],
  },
  // #49 item 15: the overlap's boundary across two definitions (one shared address; adjacent ranges share none)
  {
    name: 'a shared cluster: the others share exactly one address (a /30 and the /32 of its last address)',
    files: {
      'a.yaml': definitionText('a', spec('hub', argocd('hub', '{ name: hub }', '10.96.0.0/16') + argocd('east', '{ name: east }', '10.100.0.4/30'))),
      'b.yaml': definitionText('b', spec('hub', argocd('hub', '{ name: hub }', '10.96.0.0/16') + argocd('west', '{ name: west }', '10.100.0.7/32'))),
    },
    expected: [
      { at: 'b.yaml:9:18', related: ['a.yaml:9:18'] },
      { at: 'b.yaml:13:20', related: ['a.yaml:13:20'] },
    ],
  },
  {
    name: 'a shared cluster: the others have equal /32s',
    files: {
      'a.yaml': definitionText('a', spec('hub', argocd('hub', '{ name: hub }', '10.96.0.0/16') + argocd('east', '{ name: east }', '10.100.0.7/32'))),
      'b.yaml': definitionText('b', spec('hub', argocd('hub', '{ name: hub }', '10.96.0.0/16') + argocd('west', '{ name: west }', '10.100.0.7/32'))),
    },
    expected: [
      { at: 'b.yaml:9:18', related: ['a.yaml:9:18'] },
      { at: 'b.yaml:13:20', related: ['a.yaml:13:20'] },
    ],
  },
  {
    name: 'a shared cluster: the others are adjacent, not overlapping',
    files: {
      'a.yaml': definitionText('a', spec('hub', argocd('hub', '{ name: hub }', '10.96.0.0/16') + argocd('east', '{ name: east }', '10.100.0.4/30'))),
      'b.yaml': definitionText('b', spec('hub', argocd('hub', '{ name: hub }', '10.96.0.0/16') + argocd('west', '{ name: west }', '10.100.0.8/32'))),
    },
    expected: [{ at: 'b.yaml:9:18', related: ['a.yaml:9:18'] }],
  },
];

describe('cluster-in-two-definitions', () => {
  test.each(cases)('$name', ({ files, expected }) => {
    const diagnostics = run(files);
    expect(diagnostics.map((d) => ({ at: at(d), related: (d.related ?? []).map(at) }))).toEqual(expected);
    for (const d of diagnostics) expect([d.code, d.severity]).toEqual(['cluster-in-two-definitions', 'error']);
  });

  test('one definition alone: nothing (cluster-id-duplicate covers a repeat inside it)', () => {
    const text = definitionText('a', spec('east', argocd('east', '{ name: e }', '10.96.0.0/16') + argocd('east', '{ name: e }', '10.97.0.0/16')));
    expect(run({ 'a.yaml': text })).toEqual([]);
  });
});

test('the message names what the two definitions share, once', () => {
  const messages = (files: Record<string, string>) => run(files).map((d) => d.message);
  expect(
    messages({
      'a.yaml': definitionText('a', spec('east', '    - { clusterID: east, serviceCIDR: 10.96.0.0/16 }\n', '')),
      'b.yaml': definitionText('b', spec('east', '    - { clusterID: east, serviceCIDR: 10.97.0.0/16 }\n', '')),
    }),
  ).toEqual(['cluster ID "east" is in ClusterSet "b" and in ClusterSet "a": two definitions drive one cluster']);
  expect(
    messages({
      'a.yaml': definitionText('a', spec('east', argocd('east', '{ name: prod-1 }', '10.96.0.0/16'))),
      'b.yaml': definitionText('b', spec('west', argocd('west', '{ name: prod-1 }', '10.97.0.0/16'))),
    }),
  ).toEqual([
    'cluster "west" of ClusterSet "b" has the Argo CD destination "prod-1" (Argo CD in argocd) of cluster "east" of ClusterSet "a": two definitions drive one cluster',
  ]);
});
