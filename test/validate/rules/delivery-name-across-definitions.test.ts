import { describe, expect, test } from 'vitest';
import type { Diagnostic } from '../../../src/diagnostics/diagnostic';
import { deliveryNameAcrossDefinitions } from '../../../src/validate/rules/delivery-name-across-definitions';
import { parseClusterSet } from '../../../src/model/parse-clusterset';
import { runFleetRules } from '../../../src/validate/run-rules';
import { dataSource } from '../../helpers/compile-data';
import { LATEST } from '../../helpers/releases';
import { at, definitionText, runFleetRule } from '../../helpers/rule-tester';

const argo = 'argocd: { repoURL: https://git.example.com/r.git }';
const argoIn = (ns: string) => `argocd: { namespace: ${ns}, repoURL: https://git.example.com/r.git }`;
const hubFlux = 'flux: { sourceRef: { name: repo } }';

/**
 * A dedicated leader `hub-<tag>` (line 9) and one member `id` (line 10, its clusterID at column 20),
 * exporting a Service when `exports`, delivered by `delivery`. With a hub Flux the member has a
 * kubeconfig Secret and the leader runs the hub.
 */
const spec = (tag: string, id: string, delivery: string, { exports = false } = {}) =>
  `spec:\n  antrea: { version: ${LATEST} }\n  leader: { clusterID: hub-${tag}, server: https://10.0.0.1:6443 }\n  clusters:\n` +
  `    - { clusterID: hub-${tag}, member: false, serviceCIDR: 10.90.0.0/16, delivery: { argocd: { name: hub-${tag} } } }\n` +
  `    - { clusterID: ${id}, serviceCIDR: 10.96.0.0/16, delivery: { argocd: { name: ${tag}-m }, flux: { kubeConfigSecretRef: { name: ${tag}-kc } } } }\n` +
  (exports ? `  services:\n    - { name: web, namespace: demo, exportFrom: [${id}] }\n` : '') +
  `  delivery: { ${delivery} }\n`;

const run = (files: Record<string, string>): Diagnostic[] => runFleetRule(deliveryNameAcrossDefinitions, files);

const cases: { name: string; files: Record<string, string>; expected: { at: string; related: string[] }[] }[] = [
  {
    name: 'unrelated names: nothing',
    files: { 'a.yaml': definitionText('a', spec('x', 'b-c', argo)), 'b.yaml': definitionText('z', spec('y', 'c', argo)) },
    expected: [],
  },
  {
    // a + b-c and a-b + c both make the Application a-b-c in argocd
    name: 'Argo CD: a / b-c and a-b / c',
    files: { 'a.yaml': definitionText('a', spec('x', 'b-c', argo)), 'b.yaml': definitionText('a-b', spec('y', 'c', argo)) },
    expected: [{ at: 'b.yaml:10:20', related: ['a.yaml:10:20'] }],
  },
  {
    name: 'Argo CD: the same names in two Argo CD Namespaces',
    files: { 'a.yaml': definitionText('a', spec('x', 'b-c', argo)), 'b.yaml': definitionText('a-b', spec('y', 'c', argoIn('argocd-two'))) },
    expected: [],
  },
  {
    // the ApplicationSet a-exports of a exporting ClusterSet a, and the ApplicationSet of the ClusterSet a-exports
    name: 'Argo CD: the exports ApplicationSet <cs>-exports and a ClusterSet named <cs>-exports',
    files: {
      'a.yaml': definitionText('a', spec('x', 'east', argo, { exports: true })),
      'b.yaml': definitionText('a-exports', spec('y', 'west', argo)),
    },
    expected: [{ at: 'b.yaml:4:9', related: ['a.yaml:4:9'] }],
  },
  {
    // its exports ApplicationSet is there even with no export, so that removing the last one updates it (#38)
    name: 'Argo CD: <cs>-exports beside a ClusterSet that exports nothing',
    files: { 'a.yaml': definitionText('a', spec('x', 'east', argo)), 'b.yaml': definitionText('a-exports', spec('y', 'west', argo)) },
    expected: [{ at: 'b.yaml:4:9', related: ['a.yaml:4:9'] }],
  },
  {
    name: 'hub Flux: a / b-c and a-b / c',
    files: { 'a.yaml': definitionText('a', spec('x', 'b-c', hubFlux)), 'b.yaml': definitionText('a-b', spec('y', 'c', hubFlux)) },
    expected: [{ at: 'b.yaml:10:20', related: ['a.yaml:10:20'] }],
  },
  {
    name: 'hub Flux: two Flux Namespaces',
    files: {
      'a.yaml': definitionText('a', spec('x', 'b-c', hubFlux)),
      'b.yaml': definitionText('a-b', spec('y', 'c', 'flux: { namespace: flux-two, sourceRef: { name: repo } }')),
    },
    expected: [],
  },
  {
    name: 'one Argo CD, one hub Flux: different engines',
    files: { 'a.yaml': definitionText('a', spec('x', 'b-c', argo)), 'b.yaml': definitionText('a-b', spec('y', 'c', hubFlux)) },
    expected: [],
  },
  {
    // each cluster's Kustomizations live on its own Flux: b-c's and c's are two Fluxes
    name: 'per-cluster Flux: a / b-c and a-b / c',
    files: {
      'a.yaml': definitionText('a', spec('x', 'b-c', hubFlux).replace(/, flux: \{ kubeConfigSecretRef: \{ name: x-kc \} \}/, '')),
      'b.yaml': definitionText('a-b', spec('y', 'c', hubFlux).replace(/, flux: \{ kubeConfigSecretRef: \{ name: y-kc \} \}/, '')),
    },
    expected: [],
  },
  {
    // delivery-destination-missing reports it; synth's Argo CD builder needs every destination
    name: 'a cluster without its Argo CD destination: that definition is left to delivery-destination-missing',
    files: {
      'a.yaml': definitionText('a', spec('x', 'b-c', argo).replace('delivery: { argocd: { name: x-m }, ', 'delivery: { ')),
      'b.yaml': definitionText('a-b', spec('y', 'c', argo)),
    },
    expected: [],
  },
  {
    name: 'both engines: one report for the pair of clusters',
    files: { 'a.yaml': definitionText('a', spec('x', 'b-c', `${argo}, ${hubFlux}`)), 'b.yaml': definitionText('a-b', spec('y', 'c', `${argo}, ${hubFlux}`)) },
    expected: [{ at: 'b.yaml:10:20', related: ['a.yaml:10:20'] }],
  },
];

describe('delivery-name-across-definitions', () => {
  test.each(cases)('$name', ({ files, expected }) => {
    const diagnostics = run(files);
    expect(diagnostics.map((d) => ({ at: at(d), related: (d.related ?? []).map(at) }))).toEqual(expected);
    for (const d of diagnostics) expect([d.code, d.severity]).toEqual(['delivery-name-across-definitions', 'error']);
  });

  test('the message names the object, both clusters and both ClusterSets', () => {
    const [d] = run({ 'a.yaml': definitionText('a', spec('x', 'b-c', argo)), 'b.yaml': definitionText('a-b', spec('y', 'c', argo)) });
    expect(d!.message).toBe(
      'cluster "c" of ClusterSet "a-b" and cluster "b-c" of ClusterSet "a" would both get the Application argocd/a-b-c (one Argo CD in argocd)',
    );
  });
});

// 10,000 clusters in two definitions whose names are dash-prefixed (a, a-b): one pair collides. The
// definitions are given as data (as the construct library gives them): the rule is under test here,
// and parsing 10,000 lines of YAML was four fifths of this test's time
test('10,000 clusters in two definitions: the one colliding pair, found through the prefix index', () => {
  const members = (n: number, prefix: string) =>
    Array.from({ length: n }, (_, i) => ({ clusterID: `${prefix}${i}`, delivery: { argocd: { name: `${prefix}${i}` } } }));
  const big = (name: string, prefix: string, extra: { clusterID: string; delivery: { argocd: { name: string } } }) => ({
    apiVersion: 'antrea-clusterset/v1alpha1',
    kind: 'ClusterSetDefinition',
    metadata: { name },
    spec: {
      antrea: { version: LATEST },
      leader: { clusterID: `${prefix}0`, server: 'https://10.0.0.1:6443' },
      clusters: [...members(5000, prefix), extra],
      delivery: { argocd: { repoURL: 'https://git.example.com/r.git' } },
    },
  });
  const diagnostics: Diagnostic[] = [];
  const parsed = [
    big('a', 'm', { clusterID: 'b-c', delivery: { argocd: { name: 'bc' } } }),
    big('a-b', 'n', { clusterID: 'c', delivery: { argocd: { name: 'c' } } }),
  ].map((data, i) => parseClusterSet(dataSource(data, `${'ab'[i]!}.yaml`), diagnostics)!);
  expect(diagnostics).toEqual([]);
  // its cost is a benchmark's business (npm run bench -- validate), never a test's
  runFleetRules(parsed, diagnostics, [deliveryNameAcrossDefinitions]);
  expect(diagnostics.map((d) => d.message)).toEqual([
    'cluster "c" of ClusterSet "a-b" and cluster "b-c" of ClusterSet "a" would both get the Application argocd/a-b-c (one Argo CD in argocd)',
  ]);
});
