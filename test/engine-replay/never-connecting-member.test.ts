import { describe, expect, test } from 'vitest';
import { neverConnectingMember } from './delivery-scenarios';
import { REPLAYED_ENGINES } from './engines/replayed-engines';

/**
 * #38 item 3: a member that never connects reads Progressing (its ClusterSet's health), and a fix
 * pushed to git must still reach it, with nobody running `argocd app terminate-op`. Argo CD starts
 * no operation while one is in progress (controller/appcontroller.go autoSync; under RollingSync the
 * ApplicationSet's sync request waits for it too), and gitops-engine's Sync waits for the health
 * of a wave's resources before any later wave or PostSync hook (pkg/sync/sync_context.go Sync):
 * only an operation whose last wave is the ClusterSet's ends without waiting for it.
 */
describe.each(REPLAYED_ENGINES)('%s: members that never connect, then a fix pushed', (engine) => {
  test('the fix is synced and the members connect', async () => {
    const r = await neverConnectingMember(engine);
    expect(r.connected, r.second.log.slice(-40).join('\n')).toEqual(['test-cluster-east', 'test-cluster-west']);
    if (engine === 'argocd')
      for (const id of ['test-cluster-east', 'test-cluster-west'])
        expect(r.second.argocd[`test-clusterset-${id}`], id).toMatchObject({ revision: 'latest', operation: 'Succeeded' });
  });
});
