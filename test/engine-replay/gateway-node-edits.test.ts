import { describe, expect, test } from 'vitest';
import { gatewayNodeEdited } from './delivery-scenarios';
import { REPLAYED_ENGINES } from './engines/replayed-engines';

/**
 * #38 item 1: a Gateway Node is a partial object the engines apply server-side. A person draining
 * it (kubectl cordon, taint, label) must keep those edits across the engine's next reconcile:
 * kustomize-controller takes over every `kubectl*` manager's fields before it applies unless the
 * object says `kustomize.toolkit.fluxcd.io/ssa: Merge` (kustomize-controller apply(); fluxcd/pkg
 * ssa patch.go matchFieldManager, PatchReplaceFieldsManagers), and gitops-engine migrates only
 * `kubectl-client-side-apply` (sync_context.go applyObject).
 */
describe.each(REPLAYED_ENGINES)('%s: a cordoned Gateway Node', (engine) => {
  test('keeps the cordon, the taint and the label set with kubectl after the next reconcile, and stays a Gateway', async () => {
    const r = await gatewayNodeEdited(engine);
    expect(r.stuck).toEqual([]);
    expect(r).toMatchObject({ cordoned: true, tainted: true, labelled: true, gateway: true });
  });
});
