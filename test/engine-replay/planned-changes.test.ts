import { describe, expect, test } from 'vitest';
import { planChanges } from '../../src/plan/plan-changes';
import { hasRefused } from '../../src/plan/plan';
import { revision as planRevision, type Definition } from '../helpers/plan-revision';
import { soakRows } from '../helpers/soak';
import { withAntreaBehaviour, type AntreaModel } from './antrea/antrea-behaviour';
import { keyOf, refOf, annotation, type Obj } from './kubernetes/kube';
import { NEWEST_ARGOCD, OLDEST_FLUX, versionsToReplay } from './engines/engine-versions';
import { awaitsItsServices, replay, type ReplayResult } from './replay';
import { compileDefinition, fleetFor, readDefinition, registerDelivery, withBothEngines, type DefinitionData } from './scenario';
import { deployApplications } from './antrea/verification';

/**
 * #27: the plan's scenarios replayed. From a fleet where the base revision converged, each engine
 * applies the head revision; the fleet must reach the head's state, or the plan must have refused
 * the change. A refused change's procedure is replayed too, one revision after the other, and must
 * converge at each step. Antrea's webhooks and the controller behaviours these changes depend on
 * are modelled in antrea-behaviour.ts.
 */
const example = (name: string): DefinitionData => readDefinition(`clustersets/${name}.yaml`);
const edit = (d: DefinitionData, f: (d: Definition) => void): DefinitionData => {
  const copy = structuredClone(d);
  f(copy as unknown as Definition);
  return copy;
};
const policy = (name: string, tier: string) => ({ name, spec: { priority: 1, tier, appliedTo: [{ namespaceSelector: {} }], ingress: [] } });

const BASE = edit(example('test-clusterset'), (d) => {
  d.spec.tiers = [{ name: 'fleet-ops', priority: 60 }];
  d.spec.policies!.push(policy('ops-deny', 'fleet-ops'));
});

interface Scenario {
  readonly name: string;
  /** the revisions after the base: the change as proposed, or the procedure the plan gives instead */
  readonly revisions: readonly DefinitionData[];
  /** whether the plan refuses the first revision */
  readonly refused: boolean;
  /** a refused change that an engine's order may still carry through (the refusal is then conservative) */
  readonly mayConverge?: 'argocd';
  /** what the replay's log must show on the way (the behaviour the scenario is about) */
  readonly shows?: readonly RegExp[];
}

const SCENARIOS: Scenario[] = [
  { name: 'a policy edited', refused: false, revisions: [edit(BASE, (d) => (d.spec.policies![1]!.spec.priority = 5))] },
  {
    name: 'a Tier and a policy in it, added together (the tier-restart Job imports it)',
    refused: false,
    // the leader exports first, the members skip the policy, and their restart Job imports it
    shows: [
      /ACNPImportFailed new-deny: Tier fleet-new does not exist/,
      /Job kube-system\/antrea-clusterset-tier-restart-[0-9a-f]{10} Complete/,
      /antrea-mc-controller in kube-system restarted/,
    ],
    revisions: [
      edit(BASE, (d) => {
        d.spec.tiers!.push({ name: 'fleet-new', priority: 70 });
        d.spec.policies!.push(policy('new-deny', 'fleet-new'));
      }),
    ],
  },
  { name: "a Tier's priority changes", refused: true, revisions: [edit(BASE, (d) => (d.spec.tiers![0]!.priority = 40))] },
  {
    name: "a Tier's priority, by the procedure: new Tier and the policy moved, then the old Tier removed",
    refused: false,
    revisions: [
      edit(BASE, (d) => {
        d.spec.tiers!.push({ name: 'fleet-ops-v2', priority: 40 });
        d.spec.policies![1]!.spec.tier = 'fleet-ops-v2';
      }),
      edit(BASE, (d) => {
        d.spec.tiers = [{ name: 'fleet-ops-v2', priority: 40 }];
        d.spec.policies![1]!.spec.tier = 'fleet-ops-v2';
      }),
    ],
  },
  {
    name: 'a Tier removed with its policy',
    refused: true,
    // RollingSync syncs the leader first, whose exports take the members' policies before the members
    // prune the Tier last (PruneLast); with one Flux per cluster nothing orders them
    mayConverge: 'argocd',
    revisions: [edit(BASE, (d) => ((d.spec.tiers = []), (d.spec.policies = d.spec.policies!.slice(0, 1))))],
  },
  {
    name: 'a Tier removed with its policy, by the procedure: the policy first, then the Tier',
    refused: false,
    revisions: [
      edit(BASE, (d) => (d.spec.policies = d.spec.policies!.slice(0, 1))),
      edit(BASE, (d) => ((d.spec.tiers = []), (d.spec.policies = d.spec.policies!.slice(0, 1)))),
    ],
  },
  {
    name: 'a Gateway moves and the old Node is retired',
    refused: false,
    revisions: [
      edit(BASE, (d) => (d.spec.clusters[1]!.gateways = [{ node: 'test-cluster-east-node-2' }, { node: 'test-cluster-east-node-1', retired: true }])),
    ],
  },
  {
    name: 'a Gateway dropped outright',
    refused: true,
    revisions: [edit(BASE, (d) => (d.spec.clusters[1]!.gateways = [{ node: 'test-cluster-east-node-2' }]))],
  },
  { name: 'the ClusterSet renamed', refused: true, revisions: [edit(BASE, (d) => (d.metadata.name = 'prod-clusterset'))] },
  {
    name: 'the leader moves',
    refused: true,
    revisions: [
      edit(BASE, (d) => {
        d.spec.leader.clusterID = 'test-cluster-east';
        d.spec.clusters = d.spec.clusters.filter((c) => c.clusterID !== 'test-cluster-north');
      }),
    ],
  },
];

const GUARDED = (o: Obj) => annotation(o, 'kustomize.toolkit.fluxcd.io/prune') === 'disabled';

/** How far the fleet is from a revision: units not converged, objects missing or left, and what Antrea made of it. */
function distance(r: ReplayResult, before: ReplayResult | undefined, definition: DefinitionData, model: AntreaModel): string[] {
  const out: string[] = [];
  for (const [name, a] of Object.entries(r.argocd))
    if (a.operation !== 'Succeeded' || !a.synced || a.health.status !== 'Healthy') out.push(`${name}: ${a.operation} ${a.message}`);
  for (const [name, f] of Object.entries(r.flux)) if (f.state !== 'Ready' && !awaitsItsServices(r, name)) out.push(`${name}: ${f.state} ${f.message}`);
  const wanted = new Set<string>();
  for (const [name, unit] of Object.entries(r.units)) {
    if (unit.cluster === undefined) {
      out.push(`${name}: reaches no cluster`);
      continue;
    }
    const c = r.fleet.cluster(unit.cluster);
    for (const o of unit.objects) {
      wanted.add(`${unit.cluster} ${keyOf(o)}`);
      const live = c.getLike(o);
      if (!live) out.push(`${unit.cluster}: ${refOf(o)} missing`);
      else if ((o.kind === 'Tier' || o.kind === 'ClusterSet') && JSON.stringify(live.spec) !== JSON.stringify(o.spec))
        out.push(`${unit.cluster}: ${refOf(o)} not updated`);
    }
  }
  for (const unit of Object.values(before?.units ?? {}))
    for (const o of unit.objects)
      if (unit.cluster !== undefined && !wanted.has(`${unit.cluster} ${keyOf(o)}`) && !GUARDED(o) && r.fleet.cluster(unit.cluster).getLike(o))
        out.push(`${unit.cluster}: ${refOf(o)} left behind`);
  for (const c of definition.spec.clusters) {
    if (c.member === false) continue;
    const live = r.fleet.cluster(c.clusterID);
    for (const p of (definition.spec.policies ?? []) as { name: string }[])
      if (!live.get('crd.antrea.io', 'ClusterNetworkPolicy', undefined, `antrea-mc-${p.name}`)) out.push(`${c.clusterID}: policy ${p.name} not enforced`);
    const gateways = (c.gateways ?? []) as { node: string; retired?: boolean }[];
    const active = model.activeGateway.get(c.clusterID);
    if (gateways.length > 0 && !gateways.some((g) => !g.retired && g.node === active)) out.push(`${c.clusterID}: active Gateway ${active ?? 'none'}`);
    for (const g of gateways.filter((x) => x.retired))
      if (annotation(live.get('v1', 'Node', undefined, g.node)!, 'multicluster.antrea.io/gateway') !== undefined)
        out.push(`${c.clusterID}: ${g.node} still a Gateway`);
  }
  return out;
}

/**
 * Argo CD's newest and Flux's oldest supported here, the other two in first-install.test.ts; both of
 * each in the soak tier. Every scenario through both engines is the soak tier's too
 * (test/helpers/soak.ts); npm test replays each through one engine, the engines taking turns, and
 * both where the engines are known to differ (`mayConverge`).
 */
const ENGINES = versionsToReplay({ argocdVersion: NEWEST_ARGOCD, fluxVersion: OLDEST_FLUX }).flatMap((v) => [
  ['flux', v.fluxVersion, v] as const,
  ['argocd', v.argocdVersion, v] as const,
]);

describe.each(ENGINES)('%s %s', (engine, _version, versions) => {
  const scenarios = soakRows(SCENARIOS, (s, i) => s.mayConverge !== undefined || i % 2 === (engine === 'flux' ? 0 : 1));
  test.each(scenarios)('$name', async ({ revisions, refused, mayConverge, shows }) => {
    const base = withBothEngines(BASE);
    const compiled = await compileDefinition(base);
    // every Node a revision names exists in the clusters
    const nodes = structuredClone(base);
    for (const [i, c] of nodes.spec.clusters.entries())
      c.gateways = [
        ...new Map(revisions.flatMap((r) => [...(c.gateways ?? []), ...(r.spec.clusters[i]?.gateways ?? [])]).map((g) => [g.node, { node: g.node }])).values(),
      ];
    const fleet = await fleetFor(nodes, compiled, { appNamespaces: true });
    deployApplications(compiled.definition)(fleet);
    const model = withAntreaBehaviour(fleet);
    let last = replay({ engine, ...compiled.forEngine(engine), fleet, operator: true, ...versions });
    expect(distance(last, undefined, base, model), last.log.join('\n')).toEqual([]);

    let previous: DefinitionData = BASE;
    for (const [i, next] of revisions.entries()) {
      const plan = planChanges(
        await planRevision({ 'cs.yaml': previous as unknown as Definition }),
        await planRevision({ 'cs.yaml': next as unknown as Definition }),
      );
      expect(hasRefused(plan), plan.changes.map((c) => `[${c.impact}] ${c.text}`).join('\n')).toBe(i === 0 && refused);
      const head = await compileDefinition(withBothEngines(next));
      // the person points the engines at what the head names (a renamed ClusterSet's folder, a new leader's address)
      registerDelivery(fleet, head);
      const r = replay({ engine, ...head.forEngine(engine), fleet, operator: true, previous: last, ...versions });
      const far = distance(r, last, withBothEngines(next), model);
      // what the plan accepts, the fleet reaches; what it refuses, the fleet does not
      for (const pattern of shows ?? []) expect(r.log.join('\n')).toMatch(pattern);
      if (hasRefused(plan)) {
        if (mayConverge !== engine) expect(far.length, 'a refused change that converges anyway').toBeGreaterThan(0);
      } else expect(far, `${r.log.slice(-60).join('\n')}\n${model.refusals.join('\n')}`).toEqual([]);
      if (hasRefused(plan)) return;
      last = r;
      previous = next;
    }
  });
});

/**
 * #32 follow-up: a member leaves in two merges. Marked `withdraw: true`, its engine prunes its
 * ClusterSet (not guarded) and no Antrea workload, and the leader keeps its credentials, so its
 * mc-controller can still withdraw; removed in the next change, the leader prunes the credentials.
 */
describe.each(ENGINES)('%s %s: a member withdraws, then leaves', (engine, _version, versions) => {
  test('the first merge prunes its ClusterSet and keeps its Antrea and the leader credentials; the second revokes them', async () => {
    const west = 'test-cluster-west';
    const marked = edit(BASE, (d) => (d.spec.clusters = d.spec.clusters.map((c) => (c.clusterID === west ? { ...c, withdraw: true } : c))));
    const removed = edit(BASE, (d) => {
      d.spec.clusters = d.spec.clusters.filter((c) => c.clusterID !== west);
      d.spec.services = d.spec.services!.filter((s) => s.exportFrom === '*' || !s.exportFrom.includes(west));
    });
    const base = withBothEngines(BASE);
    const compiled = await compileDefinition(base);
    const fleet = await fleetFor(base, compiled, { appNamespaces: true });
    deployApplications(compiled.definition)(fleet);
    const model = withAntreaBehaviour(fleet);
    const first = replay({ engine, ...compiled.forEngine(engine), fleet, operator: true, ...versions });
    expect(distance(first, undefined, base, model), first.log.join('\n')).toEqual([]);
    const live = () => fleet.cluster(west);
    const leader = () => fleet.cluster('test-cluster-north');
    const credentials = () =>
      leader()
        .list('ServiceAccount', 'antrea-multicluster')
        .filter((o) => o.metadata.name === `${west}-member-token`);
    expect(live().list('ClusterSet')).toHaveLength(1);
    expect(credentials()).toHaveLength(1);

    const head = withBothEngines(marked);
    const second = replay({ engine, ...(await compileDefinition(head)).forEngine(engine), fleet, operator: true, previous: first, ...versions });
    expect(live().list('ClusterSet'), second.log.slice(-40).join('\n')).toEqual([]);
    expect(live().get('apps/v1', 'DaemonSet', 'kube-system', 'antrea-agent')).toBeDefined();
    expect(live().get('apps/v1', 'Deployment', 'kube-system', 'antrea-mc-controller')).toBeDefined();
    expect(credentials()).toHaveLength(1);
    // the other clusters' units converge; the withdrawing member's own units too
    for (const [name, a] of Object.entries(second.argocd)) expect([name, a.operation, a.health.status]).toEqual([name, 'Succeeded', 'Healthy']);
    for (const [name, f] of Object.entries(second.flux)) if (!awaitsItsServices(second, name)) expect([name, f.state]).toEqual([name, 'Ready']);

    const third = replay({
      engine,
      ...(await compileDefinition(withBothEngines(removed))).forEngine(engine),
      fleet,
      operator: true,
      previous: second,
      ...versions,
    });
    expect(credentials(), third.log.slice(-40).join('\n')).toEqual([]);
    expect(live().get('apps/v1', 'DaemonSet', 'kube-system', 'antrea-agent')).toBeDefined();
  });
});
