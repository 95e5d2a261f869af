import { describe, expect, it } from 'vitest';
import { planChanges } from '../../src/plan/plan-changes';
import { hasRefused } from '../../src/plan/plan';
import { runWithFakeKubectl } from '../helpers/fake-kubectl';
import { example, revision, type Definition } from '../helpers/plan-revision';

/**
 * #51: a member token rotated as a planned change (`tokenSecret.rotation`). The leader mints a
 * second token for the same ServiceAccount, the member's ClusterSet reads a new Secret (Antrea's
 * member ClusterSet controller re-creates its RemoteCommonArea when `secret` changes:
 * member/clusterset_controller.go, Reconcile, leaderChanged), and the checklist revokes the old
 * token only once the member is Ready on the new one.
 */
const rotated = (d: Definition, ids: readonly string[], n = 1): Definition => ({
  ...d,
  spec: { ...d.spec, clusters: d.spec.clusters.map((c) => (ids.includes(c.clusterID) ? { ...c, tokenSecret: { source: 'manual', rotation: n } } : c)) },
});
const EAST = 'test-cluster-east';
const WEST = 'test-cluster-west';
const LEADER = 'test-cluster-north';
const CLUSTERSET = 'clustersets.multicluster.crd.antrea.io';
/** A member ClusterSet as `get -o json` prints it. */
const status = (secret: string, generation: number, observed: number, ready: string) =>
  JSON.stringify({
    metadata: { generation },
    spec: { leaders: [{ secret }] },
    status: { observedGeneration: observed, conditions: [{ type: 'Ready', status: ready }] },
  });
/** The wait's loop, run without its pauses and with two tries. */
const quick = (commands: readonly string[]) => [
  commands
    .join('\n')
    .replace(/sleep [0-9]+/g, 'true')
    .replace(/seq [0-9]+/g, 'seq 2')
    .replace(/-lt [0-9]+/g, '-lt 2'),
];

describe('a member token rotated (tokenSecret.rotation)', async () => {
  const base = example('test-clusterset');
  const [before, one, both] = await Promise.all([
    revision({ 'cs.yaml': base }),
    revision({ 'cs.yaml': rotated(base, [EAST]) }),
    revision({ 'cs.yaml': rotated(base, [EAST, WEST]) }),
  ]);
  const objects = (r: typeof before, id: string) => r.outputs[0]!.bundles.find((b) => b.clusterID === id)!.objects;
  const tokens = (r: typeof before) =>
    objects(r, LEADER)
      .filter((o) => o.kind === 'Secret' && o.type === 'kubernetes.io/service-account-token' && o.metadata.namespace === 'antrea-multicluster')
      .map((o) => `${o.metadata.name} for ${String(o.metadata.annotations!['kubernetes.io/service-account.name'])}`);

  it('the leader mints a token Secret under a new name for the same ServiceAccount; the member ClusterSet reads a new Secret', () => {
    expect(tokens(before)).toEqual([`${EAST}-member-token for ${EAST}-member-token`, `${WEST}-member-token for ${WEST}-member-token`]);
    expect(tokens(one)).toEqual([`${EAST}-member-token-r1 for ${EAST}-member-token`, `${WEST}-member-token for ${WEST}-member-token`]);
    // the identity is unchanged: the ServiceAccount and its cluster-id annotation, and the RoleBinding
    const identity = (r: typeof before) => objects(r, LEADER).filter((o) => o.kind === 'ServiceAccount' || o.kind === 'RoleBinding');
    expect(identity(one)).toEqual(identity(before));
    const secretOf = (r: typeof before, id: string) =>
      (objects(r, id).find((o) => o.kind === 'ClusterSet')!.spec as { leaders: { secret: string }[] }).leaders[0]!.secret;
    expect([secretOf(before, EAST), secretOf(one, EAST), secretOf(one, WEST)]).toEqual([
      `${EAST}-leader-token`,
      `${EAST}-leader-token-r1`,
      `${WEST}-leader-token`,
    ]);
  });

  it("the leader's bundle is rebuilt (its inputs hash the member's rotation), and the plan shows its Secrets without calling them destructive", () => {
    const inputs = (r: typeof before) => r.outputs[0]!.bundles.find((b) => b.clusterID === LEADER)!.inputs;
    expect(inputs(one)).not.toBe(inputs(before));
    const plan = planChanges(before, one);
    expect(plan.objectChanges.filter((c) => c.owner === LEADER && c.kind === 'Secret').map((c) => `${c.change} ${c.name}`)).toEqual(
      expect.arrayContaining([`added ${EAST}-member-token-r1`, `removed ${EAST}-member-token`]),
    );
    // the old token Secret leaves the bundle guarded by the checklist, revoked only once the member is Ready
    expect(plan.changes.filter((c) => c.impact === 'destructive')).toEqual([]);
  });

  it('rotation 0 is the same output as no rotation', async () => {
    const zero = await revision({ 'cs.yaml': rotated(base, [EAST, WEST], 0) });
    expect(JSON.stringify(zero.outputs[0]!.bundles.map((b) => b.objects))).toBe(JSON.stringify(before.outputs[0]!.bundles.map((b) => b.objects)));
  });

  it('the README copies the new token from the new leader Secret into the new member Secret', () => {
    const readme = one.outputs[0]!.notes!;
    expect(readme).toContain(`get secret ${EAST}-member-token-r1 -o json`);
    expect(readme).toContain(`--arg name ${EAST}-leader-token-r1`);
  });

  it('the plan classifies it; its checklist guards the old token, copies the new one, waits for Ready, and only then revokes', () => {
    const plan = planChanges(before, one);
    expect(hasRefused(plan)).toBe(false);
    const change = plan.changes.find((c) => /token/.test(c.text))!;
    expect(change.impact).toBe('disruptive');
    expect(change.text).toMatch(/rotat/);
    expect(plan.changes.filter((c) => /token/.test(c.text))).toHaveLength(1);
    const items = plan.checklist!.filter((i) => /token/i.test(i.text));
    expect(items.map((i) => i.when)).toEqual(['before merging', 'after merging', 'after merging', 'after merging']);
    // each item's commands, as a shell runs them (the wait against a member that is Ready on its new token)
    const calls = items.map((i) =>
      runWithFakeKubectl(quick(i.commands ?? []), { [CLUSTERSET]: [status(`${EAST}-leader-token-r1`, 2, 2, 'True')] }).map(
        (c) => `${String(c.context)} ${String(c.namespace)} ${String(c.verb)} ${c.operands.join(' ')}`,
      ),
    );
    expect(calls[0]).toEqual([
      `${LEADER} antrea-multicluster annotate secret ${EAST}-member-token argocd.argoproj.io/sync-options=Prune=false,Delete=false kustomize.toolkit.fluxcd.io/prune=disabled`,
    ]);
    expect(calls[1]).toEqual([`${LEADER} antrea-multicluster get secret ${EAST}-member-token-r1`, `${EAST} undefined apply `]);
    expect(calls[2]).toEqual([`${EAST} kube-system get ${CLUSTERSET} test-clusterset`]);
    expect(calls[3]).toEqual([`${LEADER} antrea-multicluster delete secret ${EAST}-member-token`, `${EAST} kube-system delete secret ${EAST}-leader-token`]);
  });

  it('the wait passes only once the member ClusterSet reads the new Secret, has observed it, and is Ready', () => {
    const plan = planChanges(before, one);
    const wait = plan.checklist!.filter((i) => /token/i.test(i.text))[2]!.commands!;
    const passes = (json: string) => {
      try {
        runWithFakeKubectl(quick(wait), { [CLUSTERSET]: [json] });
        return true;
      } catch {
        return false;
      }
    };
    expect(passes(status(`${EAST}-leader-token-r1`, 2, 2, 'True'))).toBe(true);
    expect(passes(status(`${EAST}-leader-token`, 2, 2, 'True'))).toBe(false);
    expect(passes(status(`${EAST}-leader-token-r1`, 2, 1, 'True'))).toBe(false);
    expect(passes(status(`${EAST}-leader-token-r1`, 2, 2, 'False'))).toBe(false);
  });

  it('every member rotated at once is one change and one checklist', () => {
    const plan = planChanges(before, both);
    expect(plan.changes.filter((c) => /token/.test(c.text))).toHaveLength(1);
    const items = plan.checklist!.filter((i) => /token/i.test(i.text));
    expect(items).toHaveLength(4);
    const revoke = runWithFakeKubectl(items[3]!.commands!).map((c) => `${String(c.context)} ${String(c.verb)} ${c.operands.join(' ')}`);
    expect(revoke).toEqual([
      `${LEADER} delete secret ${EAST}-member-token`,
      `${LEADER} delete secret ${WEST}-member-token`,
      `${EAST} delete secret ${EAST}-leader-token`,
      `${WEST} delete secret ${WEST}-leader-token`,
    ]);
  });

  it('a second rotation revokes the first rotation’s names', async () => {
    const twice = await revision({ 'cs.yaml': rotated(base, [EAST], 2) });
    const plan = planChanges(one, twice);
    const revoke = runWithFakeKubectl(plan.checklist!.filter((i) => /token/i.test(i.text))[3]!.commands!).map((c) => c.operands.join(' '));
    expect(revoke).toEqual([`secret ${EAST}-member-token-r1`, `secret ${EAST}-leader-token-r1`]);
  });

  it('lowering the rotation is refused at its line', async () => {
    const plan = planChanges(one, before);
    expect(hasRefused(plan)).toBe(true);
    const finding = plan.findings!.find((f) => f.code === 'token-rotation-lowered')!;
    expect(finding.path).toEqual(['spec', 'clusters', 1, 'tokenSecret']);
    expect(finding.severity).toBe('error');
    const lowered = await revision({ 'cs.yaml': rotated(base, [EAST], 0) });
    const again = planChanges(one, lowered).findings!.find((f) => f.code === 'token-rotation-lowered')!;
    expect(again.path).toEqual(['spec', 'clusters', 1, 'tokenSecret', 'rotation']);
  });
});
