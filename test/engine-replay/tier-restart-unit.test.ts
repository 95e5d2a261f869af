import { describe, expect, test } from 'vitest';
import { restartTemplateChange, restartThenReconcile, unpullableRestartImage } from './delivery-scenarios';
import { REPLAYED_ENGINES } from './engines/replayed-engines';
import { SOAK } from '../helpers/soak';

/**
 * #38 item 6: the Tier-restart Job is a unit of its own after the Tiers' unit, with the image the
 * definition gives its Jobs, named by its whole template. An image the clusters cannot pull holds
 * that unit alone: not the layer (Flux `wait` counts every object of a Kustomization,
 * kustomize-controller), not the other clusters (a hub Flux's `dependsOn` on the leader's last
 * layer), not an Argo CD sync. A changed template is a new Job: a Job's Pod template is immutable
 * (pkg/apis/batch/validation ValidateJobSpecUpdate), and Flux dry-runs a unit's objects together
 * (fluxcd/pkg ssa ApplyAll), so an update in place would refuse the whole unit.
 */
describe.each(REPLAYED_ENGINES)('%s: the Tier-restart Job', (engine) => {
  // the verification runs the same image (spec.verify.image): its units wait too, and hold nothing either
  test('an unpullable image holds only the units that run it', async () => {
    const r = await unpullableRestartImage(engine);
    expect(r.unpullable.length).toBeGreaterThan(0);
    expect(r.connected).toBe(true);
    expect(r.stuck.filter((u) => /-tier-restart:/.test(u)).length).toBeGreaterThan(0);
    expect(r.stuck.filter((u) => !/-(tier-restart|verify):/.test(u))).toEqual([]);
  });

  // #49 item 3: `kubectl rollout restart` writes as `kubectl-rollout` by default, which kustomize-controller's clean-up
  // of `kubectl*` managers makes its own and its next apply removes (server-side-apply.ts fluxCleanup): the Job names
  // a manager of its own, so the restart happens once
  // (npm test through Flux, whose clean-up is the one that takes a `kubectl*` manager's fields; the
  // Job's manager is ours whatever the engine: both in the soak tier, test/helpers/soak.ts)
  if (SOAK || engine === 'flux')
    test('the engine reconciling again keeps the restart: the controller restarts once', async () => {
      const r = await restartThenReconcile(engine);
      expect(r.stuck).toEqual([]);
      expect(r.restarted).toBeDefined();
      expect(r.after).toBe(r.restarted);
    });

  // (npm test through Flux, which refuses a whole unit for one object it cannot update in place; the
  // Job's name follows its template whatever the engine: both in the soak tier)
  if (SOAK || engine === 'flux')
    test('a changed image (spec.verify.image, a mirror) is a new Job, run once, and nothing is refused', async () => {
      const r = await restartTemplateChange(engine);
      expect(r.stuckBefore).toEqual([]);
      expect(r.stuck, r.log.slice(-30).join('\n')).toEqual([]);
      expect(r.jobs.filter((j) => j.image === r.image)).toMatchObject([{ complete: true }]);
    });
});
