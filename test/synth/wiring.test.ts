import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { formatOpening, gatewayOpenings } from '../../src/synth/tunnel-ports';
import { compileFiles, expectGoldenTree } from '../helpers/golden';

const FIXTURES = 'test/fixtures/compile';
/** The wiring cases; other fixtures in FIXTURES belong to other tests with their own goldens. */
const cases = ['dual-role-manual', 'external-secret', 'sealed-secret'];

/**
 * What the wiring parts emit, and the notes: Antrea's own workloads and CRDs are proven by
 * the conformance tests, and the kustomization lists them, so both stay out of these goldens.
 */
const WIRING_FILE =
  /^(Namespace|ClusterSet|ResourceExport|ExternalSecret|SealedSecret|ServiceExport|Tier|Node)\.|^(ServiceAccount|Secret|RoleBinding)\.[^.]+\..+-member-token\.yaml$/;
const isWiringFile = (path: string): boolean => path.endsWith('/README.md') || WIRING_FILE.test(path.split('/').pop()!);

describe.each(cases)('fixture %s', (name) => {
  test('matches its golden tree', async () => {
    const files = await compileFiles([join(FIXTURES, name, 'definition.yaml')]);
    await expectGoldenTree(files, join(FIXTURES, name, 'expected'), isWiringFile);
  });
});

describe('Gateway openings', () => {
  test.each([
    [{ tunnelType: 'geneve', tunnelPort: 0, encryption: 'none' }, ['UDP 6081 (Geneve tunnel)']],
    [{ tunnelType: 'vxlan', tunnelPort: 0, encryption: 'none' }, ['UDP 4789 (VXLAN tunnel)']],
    [{ tunnelType: 'stt', tunnelPort: 0, encryption: 'none' }, ['TCP 7471 (STT tunnel)']],
    [{ tunnelType: 'gre', tunnelPort: 0, encryption: 'none' }, ['IP protocol 47 (GRE tunnel)']],
    [{ tunnelType: 'vxlan', tunnelPort: 8472, encryption: 'none' }, ['UDP 8472 (VXLAN tunnel)']],
    // GRE has no port: a tunnelPort does not apply to it
    [{ tunnelType: 'gre', tunnelPort: 8472, encryption: 'none' }, ['IP protocol 47 (GRE tunnel)']],
    // with WireGuard the tunnel travels inside it: only WireGuard crosses between Gateways (#12 item 6)
    [{ tunnelType: 'geneve', tunnelPort: 0, encryption: 'wireGuard' }, ['UDP 51821 (WireGuard)']],
    [{ tunnelType: 'gre', tunnelPort: 0, encryption: 'wireGuard' }, ['UDP 51821 (WireGuard)']],
  ] as const)('%o', (network, expected) => {
    expect(gatewayOpenings(network).map(formatOpening)).toEqual(expected);
  });
});

describe('the firewall section of the notes', () => {
  const notes = async (definition: string) => (await compileFiles([definition])).find((f) => f.path.endsWith('/README.md'))!.content;
  const section = (text: string) => text.slice(text.indexOf('## Gateways and firewalls'), text.indexOf('\n## ', text.indexOf('## Gateways and firewalls') + 3));

  test.each([
    // the mc-controller webhooks run on the host network with failurePolicy Fail: the API server must reach them on every Node
    { rule: 'control plane to every Node on TCP 9443', pattern: /the control plane \(API server\) to every Node of every cluster on TCP 9443/ },
    // Node <-> Gateway inside a cluster, both directions
    { rule: 'Nodes and Gateways both ways', pattern: /every Node to its Gateway candidates and back/ },
  ])('$rule', async ({ pattern }) => {
    expect(section(await notes('clustersets/demo-clusterset.yaml'))).toMatch(pattern);
  });

  test('grows with the members, not with their pairs: each member is named once in the Gateway table', async () => {
    const text = section(await notes('clustersets/demo-clusterset.yaml'));
    for (const id of ['demo-cluster-leader', 'demo-cluster-member2', 'demo-cluster-member3']) {
      expect(text.match(new RegExp(`\`${id}\`: `, 'g'))?.length, id).toBeLessThanOrEqual(2);
    }
  });
});

describe('the manual install in the notes (#12 item 7)', () => {
  const definitions = ['clustersets/test-clusterset.yaml', 'clustersets/demo-clusterset.yaml', 'test/fixtures/compile/external-secret/definition.yaml'];

  test.each(definitions)('%s: every shell block parses', async (definition) => {
    const notes = (await compileFiles([definition])).find((f) => f.path.endsWith('/README.md'))!.content;
    const blocks = [...notes.matchAll(/```sh\n([\s\S]*?)\n```/g)].map((m) => m[1]!);
    expect(blocks.length).toBeGreaterThan(0);
    for (const block of blocks) expect(() => execFileSync('bash', ['-n'], { input: block, stdio: ['pipe', 'pipe', 'pipe'] }), block).not.toThrow();
  });

  test('layer by layer (manual delivery): CRDs Established after the first layer, Deployments Available after the workloads, resources last, tokens in between', async () => {
    const notes = (await compileFiles(['test/fixtures/compile/external-secret/definition.yaml'])).find((f) => f.path.endsWith('/README.md'))!.content;
    const manual = notes.slice(notes.indexOf('### By hand, layer by layer'));
    expect(manual).toMatch(/0-\*\) kubectl --context "\$1" wait --for condition=Established/);
    expect(manual).toMatch(/3-\*\) kubectl --context "\$1" wait --for condition=Available/);
    expect(manual.indexOf('install_bundle hub')).toBeLessThan(manual.indexOf('install_bundle spoke-a'));
    expect(manual).toMatch(/install_bundle spoke-a spoke-a {3}# then copy its token \(Member tokens\), then: apply_layer spoke-a spoke-a 4-resources/);
    // the one-step root apply is named only as what not to rely on
    expect(manual).not.toMatch(/^kubectl apply -k/m);
  });
});
