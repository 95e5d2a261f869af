import { describe, expect, test } from 'vitest';
import type { ChecklistItem } from '../../src/plan/checklist';
import { planChanges } from '../../src/plan/plan-changes';
import { revision as planRevision, type Definition } from '../helpers/plan-revision';
import { soakRows } from '../helpers/soak';
import { withAntreaBehaviour } from './antrea/antrea-behaviour';
import { conditionOf, fieldsOf } from './kubernetes/kube';
import { notConverged } from './convergence';
import { runAsOperator } from './operator-shell';
import { replay } from './replay';
import { compileDefinition, fleetFor, readDefinition, registerDelivery, withBothEngines, type DefinitionData } from './scenario';
import { deployApplications } from './antrea/verification';
import { REPLAYED_ENGINES } from './engines/replayed-engines';

/**
 * #51: every member's token rotated at once, replayed. test-clusterset converges; the plan of
 * `tokenSecret.rotation: 1` on both members is followed as printed: its "before merging" item on
 * the fleet, then the engine applies the head while a person runs each "after merging" item at
 * the next step it succeeds (a copy before the leader minted the token, or a wait before the
 * member is Ready, is tried again at the next step). Antrea's side is the model's: a member reads
 * its token only when its ClusterSet's `secret` changes (member/clusterset_controller.go,
 * leaderChanged), the leader authenticates a token while its Secret exists (rbac.ts
 * authenticate, kube-apiserver's legacy token authenticator), and a member's ClusterSet status is
 * what the member controller writes from its connection (updateStatus).
 *
 * The checklist as printed converges with no request refused; a checklist that revokes first, or
 * that leaves the old token unguarded, turns the replay red: members announce with a revoked
 * token (Unauthorized).
 */
const BASE = withBothEngines(readDefinition('clustersets/test-clusterset.yaml'));
const MEMBERS = ['test-cluster-east', 'test-cluster-west'];
const LEADER = 'test-cluster-north';
const rotated = (d: DefinitionData): DefinitionData => {
  const copy = structuredClone(d);
  for (const c of copy.spec.clusters) if (MEMBERS.includes(c.clusterID)) c.tokenSecret = { source: 'manual', rotation: 1 } as never;
  return copy;
};

type Order = (items: ChecklistItem[]) => ChecklistItem[];
const isRevoke = (i: ChecklistItem) => /revoke the old tokens/.test(i.text);
const ORDERS: { name: string; order: Order; red: boolean }[] = [
  { name: 'the checklist as printed', order: (items) => items, red: false },
  {
    name: 'a checklist that revokes first',
    order: (items) => [
      ...items.filter((i) => i.when === 'before merging'),
      ...items.filter(isRevoke),
      ...items.filter((i) => i.when === 'after merging' && !isRevoke(i)),
    ],
    red: true,
  },
  { name: 'a checklist that does not guard the old token', order: (items) => items.filter((i) => i.when !== 'before merging'), red: true },
];

/**
 * npm test replays the printed checklist through Argo CD, whose RollingSync applies the members
 * after the leader, so the wait is what keeps the revocation after each member's reconnection (a
 * checklist without the wait, or without the guard, turns that row red); and the revocation moved
 * first through Flux. The soak tier replays every order through both (test/helpers/soak.ts).
 */
describe.each(REPLAYED_ENGINES)('%s: every member token rotated', (engine) => {
  test.each(soakRows(ORDERS, (o) => (engine === 'argocd' ? !o.red : o.name === 'a checklist that revokes first')))('$name', async ({ order, red }) => {
    const compiled = await compileDefinition(BASE);
    const fleet = await fleetFor(BASE, compiled, { appNamespaces: true });
    deployApplications(compiled.definition)(fleet);
    withAntreaBehaviour(fleet);
    const first = replay({ engine, ...compiled.forEngine(engine), fleet, operator: true });
    expect(notConverged(first), first.log.join('\n')).toEqual([]);
    const tokenOf = (id: string) => (fleet.cluster(id).get('v1', 'Secret', 'kube-system', `${id}-leader-token`)?.data as { token?: string } | undefined)?.token;
    const oldTokens = MEMBERS.map(tokenOf);
    expect(oldTokens.every((t) => t !== undefined)).toBe(true);

    const head = rotated(BASE);
    const plan = planChanges(
      await planRevision({ 'cs.yaml': BASE as unknown as Definition }),
      await planRevision({ 'cs.yaml': head as unknown as Definition }),
    );
    const items = order((plan.checklist ?? []).filter((i) => /^Token rotation/.test(i.text)));
    const log: string[] = [];
    const run = (item: ChecklistItem): string | undefined => {
      const r = runAsOperator(fleet, item.commands ?? []);
      return r.ok ? `operator: ${item.text.slice(0, 60)}…: ${r.writes.join('; ') || 'done'}` : undefined;
    };
    for (const item of items.filter((i) => i.when === 'before merging')) {
      const done = run(item);
      expect(done).toBeDefined();
      log.push(done!);
    }
    fleet.settle();

    // after merging: the next item at each step, until it succeeds
    const after = items.filter((i) => i.when === 'after merging');
    const events = Array.from({ length: 30 }, (_, n) => ({
      at: n,
      run: () => {
        const next = after[0];
        const done = next && run(next);
        if (done) after.shift();
        return done ?? (next ? `operator waits at: ${next.text.slice(0, 50)}…` : 'operator done');
      },
    }));
    const compiledHead = await compileDefinition(head);
    registerDelivery(fleet, compiledHead);
    const r = replay({ engine, ...compiledHead.forEngine(engine), fleet, previous: first, events });
    const problems = [
      ...notConverged(r),
      ...(after.length > 0 ? [`the checklist did not finish: ${after[0]!.text}`] : []),
      ...r.log.filter((l) => /Unauthorized/.test(l)),
      ...MEMBERS.flatMap((id) => {
        const cs = fleet.cluster(id).list('ClusterSet', 'kube-system')[0];
        return conditionOf(cs, 'Ready')?.status === 'True' ? [] : [`${id}: ClusterSet not Ready`];
      }),
    ];
    const everything = [...log, ...r.log].join('\n');
    if (red) {
      expect(
        problems.some((p) => /Unauthorized/.test(p)),
        everything,
      ).toBe(true);
      return;
    }
    expect(problems, everything).toEqual([]);
    // revoked: the old token Secrets on the leader and in the members are gone; the new ones hold another token
    const leader = fleet.cluster(LEADER);
    for (const id of MEMBERS) {
      expect(leader.get('v1', 'Secret', 'antrea-multicluster', `${id}-member-token`)).toBeUndefined();
      expect(fieldsOf(leader.get('v1', 'Secret', 'antrea-multicluster', `${id}-member-token-r1`)?.data).token).toBeDefined();
      expect(fleet.cluster(id).get('v1', 'Secret', 'kube-system', `${id}-leader-token`)).toBeUndefined();
      const now = (fleet.cluster(id).get('v1', 'Secret', 'kube-system', `${id}-leader-token-r1`)?.data as { token?: string } | undefined)?.token;
      expect(now).toBeDefined();
      expect(oldTokens).not.toContain(now);
    }
    // each member reconnected (with the new token: the old one is gone) before the old one was revoked
    const revoked = r.log.findIndex((l) => /deleted Secret antrea-multicluster\//.test(l));
    expect(revoked, everything).toBeGreaterThan(0);
    for (const id of MEMBERS) {
      const reconnected = r.log.findIndex((l) => l.startsWith(`[${id}]`) && /connected to leader/.test(l) && !/cannot/.test(l));
      expect(reconnected, `${id} reconnected\n${everything}`).toBeGreaterThanOrEqual(0);
      expect(reconnected).toBeLessThan(revoked);
    }
  });
});
