import { describe, expect, it } from 'vitest';
import { planChanges } from '../../src/plan/plan-changes';
import { example, revision, type Definition } from '../helpers/plan-revision';

/**
 * #51: what a Gateway change does to live connections. Antrea SNATs a member's cross-cluster
 * traffic on its active Gateway; when another candidate becomes active (its Node NotReady, the
 * annotation removed: member/node_controller.go, recreateActiveGateway) the connections through
 * the old one lose their conntrack state and must reconnect.
 */
const withGateways = (gateways: Definition['spec']['clusters'][number]['gateways']) => {
  const d = example('demo-clusterset');
  d.spec.clusters[2]!.gateways = gateways;
  return d;
};
const details = async (before: Definition, after: Definition) => {
  const plan = planChanges(await revision({ 'cs.yaml': before }), await revision({ 'cs.yaml': after }));
  return plan.changes.filter((c) => c.about?.clusters?.includes('demo-cluster-member3')).map((c) => [c.text, ...(c.details ?? [])].join('\n'));
};

describe('the plan of a Gateway change', () => {
  it('retiring a candidate that may be active lists the failover and the connections it resets', async () => {
    const [text] = await details(
      withGateways([{ node: 'cl3-node1' }, { node: 'cl3-node2' }]),
      withGateways([{ node: 'cl3-node2' }, { node: 'cl3-node1', retired: true }]),
    );
    expect(text).toMatch(/if cl3-node1 is the active Gateway, .*fails over to cl3-node2/);
    expect(text).toMatch(/conntrack/);
  });

  it('a standby candidate added says a later failover resets connections', async () => {
    const [text] = await details(withGateways([{ node: 'cl3-node1' }]), withGateways([{ node: 'cl3-node1' }, { node: 'cl3-node2' }]));
    expect(text).toMatch(/becomes a Gateway candidate/);
    expect(text).toMatch(/conntrack/);
  });

  it('a Gateway IP change resets the connections through it', async () => {
    const [text] = await details(withGateways([{ node: 'cl3-node1' }]), withGateways([{ node: 'cl3-node1', ip: '10.0.0.9' }]));
    expect(text).toMatch(/Gateway IP of cl3-node1/);
    expect(text).toMatch(/conntrack/);
  });
});
