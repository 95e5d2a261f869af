import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { effectiveClusters } from '../../src/model/effective';
import { planChanges } from '../../src/plan/plan-changes';
import { KUSTOMIZATION_RESOURCE } from '../../src/delivery/flux/removal';
import { runWithFakeKubectl, type KubectlCall } from '../helpers/fake-kubectl';
import { revision as planRevision, type Definition } from '../helpers/plan-revision';
import { soakRows } from '../helpers/soak';
import { announcing, withAntreaBehaviour } from './antrea/antrea-behaviour';
import type { Fleet } from './antrea/controllers';
import { clusterSetSpecOf } from './antrea/antrea-multicluster';
import { annotation, conditionOf, keyOf, type Obj } from './kubernetes/kube';
import { replay } from './replay';
import { Revision } from './engines/revision';
import { notConverged } from './convergence';
import { compileDefinition, fleetFor, readDefinition, registerDelivery, withBothEngines, type DefinitionData } from './scenario';
import { deployApplications } from './antrea/verification';
import { REPLAYED_ENGINES } from './engines/replayed-engines';

/**
 * #27: the procedure `plan` gives for a change Antrea's ClusterSet webhook refuses (a rename, a
 * leader move: src/validate/transitions/dissolve-steps.ts), replayed as a person follows it. From a
 * fleet where the base converged: the plan refuses the head; the definition is removed in a change
 * of its own and each engine applies that; the printed commands run in a shell (a kubectl that
 * records its calls) and each call is made on the replay's API servers, with the ClusterSet
 * webhook's rules (antrea-behaviour.ts); then the head is added and each engine applies it.
 */
const edit = (d: DefinitionData, f: (d: DefinitionData) => void): DefinitionData => {
  const copy = structuredClone(d);
  f(copy);
  return copy;
};
const DEDICATED = readDefinition('clustersets/test-clusterset.yaml');
const DUAL_ROLE = readDefinition('clustersets/demo-clusterset.yaml');
type Leader = { clusterID: string; server: string; namespace?: string };

const CASES: { name: string; base: DefinitionData; head: DefinitionData; code: string }[] = [
  {
    name: 'a dedicated leader, the ClusterSet renamed',
    base: DEDICATED,
    head: edit(DEDICATED, (d) => (d.metadata.name = 'prod-clusterset')),
    code: 'clusterset-rename',
  },
  {
    name: 'a dedicated leader replaced by a new one',
    base: DEDICATED,
    head: edit(DEDICATED, (d) => {
      (d.spec.leader as Leader).clusterID = 'test-cluster-south';
      (d.spec.leader as Leader).server = 'https://172.18.0.9:6443';
      d.spec.clusters[0]!.clusterID = 'test-cluster-south';
    }),
    code: 'leader-move',
  },
  {
    name: 'a dual-role leader, the ClusterSet renamed',
    base: DUAL_ROLE,
    head: edit(DUAL_ROLE, (d) => (d.metadata.name = 'lab-clusterset')),
    code: 'clusterset-rename',
  },
  {
    name: 'a dual-role leader moves to a member, the old leader stays a member',
    base: DUAL_ROLE,
    head: edit(DUAL_ROLE, (d) => {
      (d.spec.leader as Leader).clusterID = 'demo-cluster-member2';
      (d.spec.leader as Leader).server = 'https://192.168.150.102:6443';
    }),
    code: 'leader-move',
  },
];

const CLUSTERSET = { apiVersion: 'multicluster.crd.antrea.io/v1alpha2', kind: 'ClusterSet' };
const RESOURCES: Record<string, { apiVersion: string; kind: string }> = {
  'clustersets.multicluster.crd.antrea.io': CLUSTERSET,
  secret: { apiVersion: 'v1', kind: 'Secret' },
};
const GUARDED = (o: Obj) => annotation(o, 'kustomize.toolkit.fluxcd.io/prune') === 'disabled';
/** What must never go on the way: Antrea's CNI, a CRD (it takes its objects with it), a Namespace. */
const ANTREA_CNI = new Set(['antrea-agent', 'antrea-controller']);
const vital = (o: Obj) => o.kind === 'CustomResourceDefinition' || o.kind === 'Namespace' || ANTREA_CNI.has(o.metadata.name);

/** The commands of the printed steps: what follows the step's text (docs/rules/clusterset-rename.md). */
const commandsOf = (steps: readonly string[]) => steps.flatMap((s) => s.match(/: ((?:kubectl --context|for \w+ in) .*)$/)?.[1] ?? []);

/** Every ClusterSet of the fleet: `cluster namespace/name leader Ready`. */
const clusterSets = (fleet: Fleet) =>
  [...fleet.clusters.values()].flatMap((c) =>
    c
      .list('ClusterSet')
      .map(
        (cs) =>
          `${c.clusterID} ${String(cs.metadata.namespace)}/${cs.metadata.name} ${clusterSetSpecOf(cs).leaders?.[0]?.server ? `member of ${clusterSetSpecOf(cs).leaders![0]!.clusterID!}` : 'leader'} ${String(conditionOf(cs, 'Ready')?.status)}`,
      ),
  );

/** One kubectl call on the replay's API servers; false when the API server (a webhook) refuses it. */
function perform(fleet: Fleet, call: KubectlCall): boolean {
  const c = fleet.cluster(call.context!);
  if (call.verb === 'get') return true;
  expect(call.verb).toBe('delete');
  const [resource, name] = call.operands;
  const type = RESOURCES[resource!];
  if (!type) throw new Error(`the replay does not model ${String(resource)}`);
  const ref = { ...type, metadata: { name: name!, namespace: call.namespace } };
  expect(c.getLike(ref), `${call.args.join(' ')}: nothing to delete`).toBeDefined();
  const done = c.delete(ref);
  fleet.settle();
  return done;
}

/** The context the procedure names a hub Flux by (`$FLUX_CONTEXT`), and how `get -o name` lists a Kustomization. */
const FLUX_HUB = 'flux-hub';
const KUSTOMIZATION = 'kustomization.kustomize.toolkit.fluxcd.io/';

/**
 * Every case through both engines is the soak tier's (test/helpers/soak.ts); npm test replays each
 * through one, the engines taking turns, but for a dual-role leader's rename: its procedure
 * (dissolve-steps.ts) is the dedicated leader's rename, replayed through the same engine, with the
 * leader's own member ClusterSet first, which the dual-role leader's move replays.
 */
const SOAK_ONLY = 'a dual-role leader, the ClusterSet renamed';
if (!CASES.some((c) => c.name === SOAK_ONLY)) throw new Error(`dissolve-procedure: no case ${SOAK_ONLY}`);
const ENGINES = REPLAYED_ENGINES;
describe.each(ENGINES)('%s', (engine) => {
  beforeEach(() => vi.stubEnv('FLUX_CONTEXT', FLUX_HUB));
  afterEach(() => vi.unstubAllEnvs());
  test.each(soakRows(CASES, (c, i) => c.name !== SOAK_ONLY && i % ENGINES.length === ENGINES.indexOf(engine)))('$name', async ({ base, head, code }) => {
    const baseDef = withBothEngines(base);
    const headDef = withBothEngines(head);
    const compiled = await compileDefinition(baseDef);
    // the clusters of both revisions exist; the head's new ones run nothing yet
    const all = edit(baseDef, (d) => d.spec.clusters.push(...headDef.spec.clusters.filter((c) => !d.spec.clusters.some((b) => b.clusterID === c.clusterID))));
    const fleet = await fleetFor(all, compiled, { appNamespaces: true });
    deployApplications(compiled.definition)(fleet);
    const model = withAntreaBehaviour(fleet);
    const deleted: { cluster: string; obj: Obj }[] = [];
    for (const c of fleet.clusters.values()) {
      const remove = c.delete.bind(c);
      c.delete = (o) => {
        const live = c.getLike(o);
        const done = remove(o);
        // (a member's controller deletes its own MemberClusterAnnounce when its ClusterSet goes)
        if (done && live && live.kind !== 'MemberClusterAnnounce') deleted.push({ cluster: c.clusterID, obj: live });
        return done;
      };
    }
    const a = replay({ engine, ...compiled.forEngine(engine), fleet, operator: true });
    expect(notConverged(a), a.log.join('\n')).toEqual([]);
    const running = clusterSets(fleet);

    // 0. the plan refuses the head and prints the procedure, each command with its cluster
    const plan = planChanges(
      await planRevision({ 'cs.yaml': baseDef as unknown as Definition }),
      await planRevision({ 'cs.yaml': headDef as unknown as Definition }),
    );
    const refusal = plan.changes.find((c) => c.impact === 'refused');
    expect(refusal?.code).toBe(code);
    const steps = refusal!.steps!;
    expect(steps[0]).toMatch(/^revert this change, then remove the definition of /);
    // the old ClusterSet's Flux Kustomizations, as the Flux that holds them lists them: a hub Flux, or each cluster's own
    const hub = effectiveClusters(compiled.definition).some((c) => c.cluster.delivery.flux?.kubeConfigSecretRef);
    const orphans = new Map(a.fluxRuns);
    const lists: Record<string, string[]> = {};
    for (const [name, run] of orphans) (lists[`${hub ? FLUX_HUB : run.home.clusterID} ${KUSTOMIZATION_RESOURCE}`] ??= []).push(`${KUSTOMIZATION}${name}`);
    const calls = runWithFakeKubectl(commandsOf(steps), lists);
    const members = effectiveClusters(compiled.definition).filter((c) => c.isMember);
    const clusterSetCalls = calls.filter((c) => c.verb === 'delete' && c.operands[0] === 'clustersets.multicluster.crd.antrea.io');
    expect(clusterSetCalls).toHaveLength(members.length + 1);
    // a leader move: each member's token Secret (manual) goes too, after its ClusterSet, so that the new leader's token is copied
    const secretCalls = calls.filter((c) => c.verb === 'delete' && c.operands[0] === 'secret');
    expect(secretCalls.map((c) => c.context)).toEqual(code === 'leader-move' ? members.map((m) => m.clusterID) : []);

    // 1. the definition removed in a change of its own: nothing is pruned, nothing delivers the ClusterSets any more,
    // and every member stays connected (its credentials on the leader are not pruned), so it can withdraw
    const folder = compiled.forEngine(engine).folder;
    const removal = replay({ engine, revision: new Revision(new Map()), folder, fleet, operator: true, previous: a });
    expect(clusterSets(fleet)).toEqual(running);
    // but the exports units, which take their ServiceExports along (#38: a unit that leaves git stops exporting)
    expect(deleted.filter((d) => d.obj.kind !== 'ServiceExport').map((d) => `${d.cluster} ${keyOf(d.obj)}`)).toEqual([]);

    // the wrong order: the leader first is refused by its webhook while members are announced, and changes nothing
    const leaderCall = clusterSetCalls.at(-1)!;
    expect(leaderCall.context).toBe(compiled.definition.spec.leader.clusterID);
    expect(perform(fleet, leaderCall)).toBe(false);
    expect(model.refusals.at(-1)).toMatch(/MemberClusterAnnounces of .+ are still in /);
    expect(clusterSets(fleet)).toEqual(running);

    // 2.–4. the steps as printed, in order: each succeeds; the leader's announces are gone when it is checked
    const pruneOff = new Set<string>();
    for (const call of calls) {
      // the old Flux Kustomizations: each is deleted, after its prune is turned off, on the Flux that holds it
      if (call.verb === 'get' && call.operands[0] === KUSTOMIZATION_RESOURCE) continue;
      if (call.operands[0]?.startsWith(KUSTOMIZATION)) {
        const name = call.operands[0].slice(KUSTOMIZATION.length);
        const run = orphans.get(name);
        expect(run, `${call.args.join(' ')}: no such Kustomization`).toBeDefined();
        expect(call.context).toBe(hub ? FLUX_HUB : run!.home.clusterID);
        if (call.verb === 'patch') {
          expect(call.args.slice(-2)).toEqual(['-p', '{"spec":{"prune":false}}']);
          pruneOff.add(name);
        } else {
          expect(call.verb).toBe('delete');
          run!.deletedByPerson(run!.k.prune && !pruneOff.has(name));
          orphans.delete(name);
          fleet.settle();
        }
        continue;
      }
      if (call.verb === 'get') expect(announcing(fleet, call.context!, call.namespace!)).toEqual([]);
      expect(perform(fleet, call), `${call.args.join(' ')}\n${model.refusals.join('\n')}`).toBe(true);
    }
    expect(clusterSets(fleet)).toEqual([]);
    // the engines keep running the removal: nothing re-creates a ClusterSet
    const again = replay({ engine, revision: new Revision(new Map()), folder, fleet, operator: true, previous: removal });
    expect(clusterSets(fleet), again.log.join('\n')).toEqual([]);

    // 5. the head added: it converges, every member connected to the new leader under the new name
    const next = await compileDefinition(headDef);
    // the person points the engines at the head as docs/delivery.md says (its folder, its leader's address, its hub)
    registerDelivery(fleet, next);
    deployApplications(next.definition)(fleet);
    const previous = { ...removal, fluxRuns: new Map([...orphans, ...removal.fluxRuns]) };
    const byPerson = deleted.length;
    const r = replay({ engine, ...next.forEngine(engine), fleet, operator: true, previous });
    expect(notConverged(r), r.log.slice(-80).join('\n')).toEqual([]);
    // no Kustomization of the old revision is left orphaned (Flux: there were some): a rename deleted them all, a leader move those
    // of the clusters that left, and the head took over the others by name; deleting them deleted nothing in the clusters
    if (engine === 'flux') expect(a.fluxRuns.size).toBeGreaterThan(0);
    expect([...orphans.keys()].filter((n) => !r.fluxRuns.has(n))).toEqual([]);
    if (code === 'clusterset-rename') expect([...orphans.keys()]).toEqual([]);
    const leader = next.definition.spec.leader;
    const expected = [
      `${leader.clusterID} ${leader.namespace}/${next.definition.metadata.name} leader True`,
      ...effectiveClusters(next.definition)
        .filter((c) => c.isMember)
        .map((c) => `${c.clusterID} ${c.cluster.namespace}/${next.definition.metadata.name} member of ${leader.clusterID} True`),
    ].sort();
    expect(clusterSets(fleet).sort()).toEqual(expected);
    expect(announcing(fleet, leader.clusterID, leader.namespace)).toEqual(
      members.length
        ? effectiveClusters(next.definition)
            .filter((c) => c.isMember)
            .map((c) => c.clusterID)
            .sort()
        : [],
    );
    expect(model.refusals).toHaveLength(1);

    // up to the head, only what the printed commands delete went: the ClusterSets and, for a leader move, the token Secrets
    // (and the ServiceExports, with their exports units when the definition was removed)
    expect(
      deleted
        .slice(0, byPerson)
        .filter((d) => d.obj.kind !== 'ServiceExport')
        .map((d) => `${d.cluster} ${d.obj.kind}`),
    ).toEqual(
      calls
        .filter((c) => c.verb === 'delete' && !c.operands[0]!.startsWith(KUSTOMIZATION))
        .map((c) => `${String(c.context)} ${RESOURCES[c.operands[0]!]!.kind}`),
    );
    // the head's own apply prunes only what it no longer holds, never
    // Antrea's CNI, a CRD, a Namespace or a guarded object
    const guarded = new Set(Object.values(a.units).flatMap((u) => u.objects.filter(GUARDED).map((o) => `${String(u.cluster)} ${keyOf(o)}`)));
    const wanted = new Set(Object.values(r.units).flatMap((u) => u.objects.map((o) => `${String(u.cluster)} ${keyOf(o)}`)));
    const pruned = deleted.slice(byPerson).map((d) => ({ key: `${d.cluster} ${keyOf(d.obj)}`, obj: d.obj }));
    expect(pruned.filter((d) => vital(d.obj) || guarded.has(d.key) || wanted.has(d.key)).map((d) => d.key)).toEqual([]);
    // (the verification Jobs of the old leader, and a former dual-role leader's leader controller)
    if (code === 'leader-move' && base === DUAL_ROLE)
      expect(pruned.map((d) => d.key)).toContain('demo-cluster-leader apps/Deployment/antrea-multicluster/antrea-mc-controller');
  });
});
