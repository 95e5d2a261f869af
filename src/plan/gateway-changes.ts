// The plan's lines for a member's Gateway list: what Antrea does with it, and when.
import type { EffectiveCluster } from '../model/effective';
import { activeGateways, retiredGateways } from '../model/gateways';
import type { ChangeSubjects, Impact } from './plan';

/**
 * What Antrea does with a changed Gateway list, and when: the annotations change when the
 * member's delivery applies its last layer; the member controller keeps an annotated, Ready
 * active Gateway and elects another Ready candidate only when the active one loses its annotation
 * or readiness (member/node_controller.go, NodeReconciler.Reconcile, recreateActiveGateway).
 */
export function gatewayChange(
  id: string,
  b: EffectiveCluster,
  a: EffectiveCluster,
  add: (impact: Impact, text: string, details?: readonly string[], about?: ChangeSubjects) => void,
): void {
  const here = { clusters: [id] };
  const label = (g: { node: string; ip?: string | undefined }) => (g.ip ? `${g.node} (${g.ip})` : g.node);
  const before = activeGateways(b.cluster);
  const after = activeGateways(a.cluster);
  const had = new Set(before.map((g) => g.node));
  const has = new Set(after.map((g) => g.node));
  const retiring = new Set(retiredGateways(a.cluster).map((g) => g.node));
  const dropped = before.filter((g) => !has.has(g.node));
  const added = after.filter((g) => !had.has(g.node));
  const when = `when the delivery of ${id} applies its 4-resources layer`;
  const elect = after.length > 0 ? `Antrea's member controller elects a Ready candidate among ${after.map(label).join(', ')}` : `${id} has no Gateway left`;
  const stay = dropped.filter((g) => !retiring.has(g.node));
  const retired = dropped.filter((g) => retiring.has(g.node));
  if (retired.length > 0)
    add(
      'disruptive',
      before.length > 0 && added.length > 0
        ? `Gateway of ${id} moves from ${before.map(label).join(', ')} to ${after.map(label).join(', ')}`
        : `Gateway ${retired.map(label).join(', ')} of ${id} is retired`,
      [
        `${when}, server-side apply removes the Gateway annotations the engine set on ${retired.map((g) => g.node).join(', ')} (the Node stays); annotations also set by hand stay until removed by hand (kubectl annotate node <name> multicluster.antrea.io/gateway-)`,
        `${elect} as soon as the active Gateway loses its annotation; cross-cluster traffic of ${id} pauses while the Gateways reconnect`,
        'remove the retired entries in a later change',
      ],
      here,
    );
  // a Gateway dropped without `retired` is refused by gateway-removed, whose line in the plan says it all
  if (added.length > 0 && retired.length === 0 && stay.length === 0) {
    if (before.length === 0)
      add(
        'disruptive',
        `Gateway of ${id} is set to ${added.map(label).join(', ')}`,
        [`${when}; ${id} joins cross-cluster traffic once Antrea elects it`],
        here,
      );
    else
      add(
        'safe',
        `${added.map(label).join(', ')} becomes a Gateway candidate of ${id}`,
        [`Antrea keeps the active Gateway while it stays annotated and Ready: traffic moves to ${added.map((g) => g.node).join(', ')} only on a failover`],
        here,
      );
  }
  for (const g of after) {
    const old = before.find((x) => x.node === g.node);
    if (old && old.ip !== g.ip)
      add('disruptive', `Gateway IP of ${g.node} in ${id} changes from ${old.ip ?? 'the Node address'} to ${g.ip ?? 'the Node address'}`, undefined, here);
  }
}
