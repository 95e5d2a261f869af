import { describe, expect, test } from 'vitest';
import { planChanges } from '../../src/plan/plan-changes';
import { hasRefused } from '../../src/plan/plan';
import { revision as planRevision, type Definition } from '../helpers/plan-revision';
import { SOAK } from '../helpers/soak';
import { withAntreaBehaviour } from './antrea/antrea-behaviour';
import { notConverged } from './convergence';
import { replay, type ReplayResult } from './replay';
import { compileDefinition, fleetFor, readDefinition, withBothEngines, type DefinitionData } from './scenario';
import { deployApplications } from './antrea/verification';
import { REPLAYED_ENGINES } from './engines/replayed-engines';

/**
 * #38 item 5: a Tier replaced by another at its priority, or swapped at the 20-Tier limit. Antrea
 * refuses the new Tier while the old one exists (pkg/controller/networkpolicy/validate.go,
 * tierValidator.createValidate); Flux applies a unit before it prunes what left it, so its last
 * layer is refused in every member. The plan refuses the change (tier-swap) and its procedure
 * converges, one revision after the other.
 */
const withTiers = (tiers: { name: string; priority: number }[]): DefinitionData => {
  const d = readDefinition('clustersets/test-clusterset.yaml');
  return { ...d, spec: { ...d.spec, tiers } };
};
/** 14 custom Tiers at priorities 1–14: with the 6 built-in ones, Antrea's limit of 20 */
const full = Array.from({ length: 14 }, (_, i) => ({ name: `t${i + 1}`, priority: i + 1 }));

const CASES = [
  {
    name: 'a Tier replaced at its priority',
    base: withTiers([{ name: 'legacy', priority: 60 }]),
    swap: withTiers([{ name: 'modern', priority: 60 }]),
    procedure: [withTiers([]), withTiers([{ name: 'modern', priority: 60 }])],
    wanted: ['modern'],
  },
  {
    name: 'a Tier swapped at the 20-Tier limit',
    base: withTiers(full),
    swap: withTiers([...full.slice(0, 13), { name: 'new', priority: 40 }]),
    procedure: [withTiers(full.slice(0, 13)), withTiers([...full.slice(0, 13), { name: 'new', priority: 40 }])],
    wanted: ['new'],
  },
];

const members = ['test-cluster-east', 'test-cluster-west'];
const tiersOf = (r: ReplayResult, id: string) =>
  r.fleet
    .cluster(id)
    .list('Tier')
    .map((t) => t.metadata.name);

async function plan(from: DefinitionData, to: DefinitionData) {
  return planChanges(await planRevision({ 'cs.yaml': from as unknown as Definition }), await planRevision({ 'cs.yaml': to as unknown as Definition }));
}

// npm test replays both cases through Flux, which also replays the refused change; the soak tier
// (test/helpers/soak.ts) both through Argo CD too. Argo CD follows a Tier procedure of the plan's,
// one revision after the other, in planned-changes.test.ts ("a Tier's priority, by the procedure",
// "a Tier removed with its policy, by the procedure")
describe.each(REPLAYED_ENGINES.filter((e) => SOAK || e === 'flux'))('%s', (engine) => {
  test.each(CASES)('$name: refused by the plan, the clusters refuse it too, and the procedure converges', async ({ base, swap, procedure, wanted }) => {
    const p = await plan(base, swap);
    expect(hasRefused(p), p.changes.map((c) => `[${c.impact}] ${c.text}`).join('\n')).toBe(true);
    expect(p.changes.find((c) => c.impact === 'refused')).toMatchObject({ code: 'tier-swap' });

    const compiled = await compileDefinition(withBothEngines(base));
    const fleet = await fleetFor(withBothEngines(base), compiled, { appNamespaces: true });
    deployApplications(compiled.definition)(fleet);
    const model = withAntreaBehaviour(fleet);
    const first = replay({ engine, ...compiled.forEngine(engine), fleet, operator: true });
    expect(notConverged(first)).toEqual([]);

    // the change as proposed, on a copy of the same fleet's history: Flux's last layer is refused
    if (engine === 'flux') {
      const copy = await fleetFor(withBothEngines(base), compiled, { appNamespaces: true });
      deployApplications(compiled.definition)(copy);
      const copyModel = withAntreaBehaviour(copy);
      const a = replay({ engine, ...compiled.forEngine(engine), fleet: copy, operator: true });
      const r = replay({ engine, ...(await compileDefinition(withBothEngines(swap))).forEngine(engine), fleet: copy, operator: true, previous: a });
      for (const id of members) expect(tiersOf(r, id), id).not.toContain(wanted[0]);
      expect(copyModel.refusals.join('\n')).toMatch(/overlaps with existing Tier|maximum number of Tiers supported: 20/);
    }

    // the procedure: each step accepted by the plan, each converging
    let last = first;
    let previous = base;
    for (const step of procedure) {
      expect(hasRefused(await plan(previous, step))).toBe(false);
      last = replay({ engine, ...(await compileDefinition(withBothEngines(step))).forEngine(engine), fleet, operator: true, previous: last });
      expect(notConverged(last), `${last.log.slice(-30).join('\n')}\n${model.refusals.join('\n')}`).toEqual([]);
      for (const id of members) expect(tiersOf(last, id).sort(), id).toEqual((step.spec.tiers as { name: string }[]).map((t) => t.name).sort());
      previous = step;
    }
  });
});
