import { describe, expect, test } from 'vitest';
import type { Diagnostic } from '../../src/diagnostics/diagnostic';
import { loadYaml } from '../../src/load/load-yaml';
import { parseClusterSet } from '../../src/model/parse-clusterset';
import { source } from '../helpers/source';
import { LATEST } from '../helpers/releases';

function parse(text: string) {
  const diagnostics: Diagnostic[] = [];
  const src = loadYaml('t.yaml', text, diagnostics)!;
  return { parsed: parseClusterSet(src, diagnostics), diagnostics };
}

const minimal = source`
  apiVersion: antrea-clusterset/v1alpha1
  kind: ClusterSetDefinition
  metadata:
    name: cs
  spec:
    antrea:
      version: ${LATEST}
    leader:
      clusterID: a
      server: https://a:6443
    clusters:
      - clusterID: a
`;

describe('model defaults', () => {
  test('a minimal definition gets every documented default', () => {
    const { parsed, diagnostics } = parse(minimal);
    expect(diagnostics).toEqual([]);
    expect(parsed!.definition.spec).toMatchObject({
      antrea: { version: LATEST, imageRegistry: 'antrea', agentConfig: {}, controllerConfig: {} },
      network: {
        trafficEncapMode: 'encap',
        tunnelType: 'geneve',
        tunnelPort: 0,
        endpointIPType: 'ClusterIP',
        podToPodConnectivity: false,
        stretchedNetworkPolicy: false,
        encryption: 'none',
        gatewayIPPrecedence: 'private',
      },
      leader: { namespace: 'antrea-multicluster' },
      clusters: [{ clusterID: 'a', member: true, namespace: 'kube-system', podCIDRs: [], gateways: [], network: {}, tokenSecret: { source: 'manual' } }],
      services: [],
      tiers: [],
      policies: [],
    });
  });
});

describe('schema diagnostics', () => {
  test.each([
    {
      name: 'unknown key with a did-you-mean hint at the key',
      text: minimal.replace('    - clusterID: a\n', '    - clusterID: a\n      podCIDR: [10.0.0.0/16]\n'),
      expected: { line: 13, column: 7, path: ['spec', 'clusters', 0, 'podCIDR'], hint: 'did you mean "podCIDRs"?' },
    },
    {
      name: 'bad enum value with a suggestion',
      text: minimal.replace('  antrea:\n', '  network:\n    tunnelType: genve\n  antrea:\n'),
      expected: { line: 7, column: 17, path: ['spec', 'network', 'tunnelType'], hint: 'did you mean "geneve"?' },
    },
    {
      name: 'unknown token source names the valid ones',
      text: minimal.replace('    - clusterID: a\n', '    - clusterID: a\n      tokenSecret: { source: vault }\n'),
      expected: {
        line: 13,
        column: 30,
        path: ['spec', 'clusters', 0, 'tokenSecret', 'source'],
        message: 'invalid value "vault": expected one of "manual", "externalSecret", "sealedSecret"',
      },
    },
    {
      name: 'missing required field points at its parent',
      text: minimal.replace('    server: https://a:6443\n', ''),
      expected: { line: 9, column: 5, path: ['spec', 'leader', 'server'] },
    },
    {
      name: 'wrong type',
      text: minimal.replace('    - clusterID: a\n', '    - clusterID: a\n      member: "yes"\n'),
      expected: { line: 13, column: 15, path: ['spec', 'clusters', 0, 'member'] },
    },
    {
      // YAML reads 1.30 as the number 1.3: refused, never read as Kubernetes 1.3 (#43)
      name: 'an unquoted Kubernetes version',
      text: minimal.replace('  leader:\n', '  kubernetesVersion: 1.30\n  leader:\n'),
      expected: { line: 8, column: 22, path: ['spec', 'kubernetesVersion'], message: expect.stringContaining('quote it') as unknown },
    },
    {
      name: 'a Kubernetes version that is not one',
      text: minimal.replace('    - clusterID: a\n', '    - clusterID: a\n      kubernetesVersion: "1.35-eks"\n'),
      expected: { line: 13, column: 26, path: ['spec', 'clusters', 0, 'kubernetesVersion'] },
    },
  ])('$name', ({ text, expected }) => {
    const { parsed, diagnostics } = parse(text);
    expect(parsed).toBeUndefined();
    expect(diagnostics).toHaveLength(1);
    expect(diagnostics[0]).toMatchObject({ code: 'schema', severity: 'error', ...expected });
  });
});

// #40 item 5: an object of another API saved in clustersets/ is one error that says what it is,
// not nine with "did you mean" hints toward a definition it never was
describe('a file that is no definition', () => {
  const antreaClusterSet = source`
    apiVersion: multicluster.crd.antrea.io/v1alpha2
    kind: ClusterSet
    metadata:
      name: test-clusterset
      namespace: kube-system
    spec:
      clusterID: test-cluster-east
      leaders:
        - clusterID: test-cluster-north
          secret: member-east-token
          server: https://172.18.0.1:6443
      namespace: antrea-multicluster
  `;
  const dump = source`
    apiVersion: v1
    kind: List
    items: []
  `;
  const deployment = source`
    apiVersion: apps/v1
    kind: Deployment
    metadata: { name: web }
    spec: {}
  `;

  test.each([
    { what: "Antrea's ClusterSet", text: antreaClusterSet, message: /Antrea ClusterSet object \(multicluster\.crd\.antrea\.io\/v1alpha2\)/, adopt: true },
    { what: 'a cluster dump', text: dump, message: /Kubernetes List object \(v1\)/, adopt: true },
    { what: 'a Deployment', text: deployment, message: /Kubernetes Deployment object \(apps\/v1\)/, adopt: false },
  ])('$what: one error at its kind, naming it', ({ text, message, adopt }) => {
    const { parsed, diagnostics } = parse(text);
    expect(parsed).toBeUndefined();
    expect(diagnostics).toHaveLength(1);
    expect(diagnostics[0]).toMatchObject({ code: 'schema', severity: 'error', line: 2, column: 7, path: ['kind'] });
    expect(diagnostics[0]!.message).toMatch(message);
    expect(diagnostics[0]!.message).toMatch(/not a ClusterSet definition/);
    expect(diagnostics[0]!.hint).toMatch(adopt ? /clusterset import/ : /antrea-clusterset\/v1alpha1/);
  });

  test('a tool configuration (no apiVersion, kind or spec): one error that says so', () => {
    const { parsed, diagnostics } = parse('{ "compilerOptions": { "strict": true } }\n');
    expect(parsed).toBeUndefined();
    expect(diagnostics.map((d) => [d.code, d.line, d.message])).toEqual([
      ['schema', 1, 'the file holds no ClusterSet definition: it has no apiVersion, kind or spec'],
    ]);
  });

  test('a definition with a mistyped apiVersion is still a definition: its errors as usual', () => {
    const { diagnostics } = parse(minimal.replace('antrea-clusterset/v1alpha1', 'antrea-clusterset/v1alpha2'));
    expect(diagnostics.map((d) => d.path.join('.'))).toEqual(['apiVersion']);
  });
});
