import { describe, expect, it } from 'vitest';
import { example, revision } from '../helpers/plan-revision';

/**
 * #51: a standby Gateway candidate is a Gateway the moment Antrea fails over to it, so the
 * firewall matrix and the README list every candidate (with the IP it would tunnel from), and the
 * member's bundle annotates every one of them, not only the first.
 */
describe('standby Gateway candidates', async () => {
  const d = example('test-clusterset');
  d.spec.clusters[1]!.gateways = [
    { node: 'east-a', ip: '10.0.1.10' },
    { node: 'east-b', ip: '10.0.2.10' },
    { node: 'east-old', retired: true },
  ];
  const r = await revision({ 'cs.yaml': d });
  const readme = r.outputs[0]!.notes!;
  const section = (title: string) => readme.slice(readme.indexOf(`## ${title}`), readme.indexOf('\n## ', readme.indexOf(`## ${title}`) + 3));

  it('the firewall matrix lists the standby with its IP, and not a retired Node', () => {
    const firewalls = section('Gateways and firewalls');
    const row = firewalls.split('\n').find((l) => l.startsWith('| `test-cluster-east`'))!;
    expect(row).toContain('`east-a` (10.0.1.10)');
    expect(row).toContain('`east-b` (10.0.2.10)');
    expect(row).not.toContain('east-old');
  });

  it('the clusters table lists every candidate too', () => {
    const row = section('Clusters')
      .split('\n')
      .find((l) => l.startsWith('| `test-cluster-east`'))!;
    expect(row).toMatch(/`east-a` \(10\.0\.1\.10\), `east-b` \(10\.0\.2\.10\)/);
  });

  it("the member's bundle annotates every candidate as a Gateway", () => {
    const nodes = r.outputs[0]!.bundles.find((b) => b.clusterID === 'test-cluster-east')!.objects.filter((o) => o.kind === 'Node');
    const gateway = (name: string) => nodes.find((n) => n.metadata.name === name)?.metadata.annotations?.['multicluster.antrea.io/gateway'];
    expect([gateway('east-a'), gateway('east-b'), gateway('east-old')]).toEqual(['true', 'true', undefined]);
  });
});
