import { describe, expect, test } from 'vitest';
import { rollingSyncDrift } from './delivery-scenarios';

/**
 * #38 item 8: what RollingSync does with drift, by version (docs/delivery.md states both). The
 * ApplicationSet controller turns the Applications' automated sync off and syncs them itself: up to
 * v3.2 an OutOfSync Application goes back to Waiting and is synced again
 * (applicationset_controller.go updateApplicationSetApplicationStatus, appOutdated); from v3.3 only
 * a new revision (or spec) does (progressivesync UpdateApplicationSetApplicationStatus).
 */
describe('argocd: a member bundle changed by hand under RollingSync', () => {
  test('v3.2: synced again, the change reverted', async () => {
    const r = await rollingSyncDrift('3.2');
    expect(r.stuckBefore).toEqual([]);
    expect(r.restored).toBe(true);
  });

  test('v3.3 and later: left as it is until the next commit that changes that bundle', async () => {
    const r = await rollingSyncDrift('3.3');
    expect(r.stuckBefore).toEqual([]);
    expect(r.restored).toBe(false);
  });
});
