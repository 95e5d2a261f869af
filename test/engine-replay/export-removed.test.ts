import { describe, expect, test } from 'vitest';
import { lastExportRemoved } from './delivery-scenarios';
import { REPLAYED_ENGINES } from './engines/replayed-engines';

/**
 * #38 item 2: a definition that stops exporting a Service must stop exporting it. The last export
 * of a Namespace (Flux) or of a member (Argo CD) takes its delivery unit out of git; the unit must
 * take its ServiceExports with it: Flux deletes a Kustomization that leaves its parent and, with
 * `prune: true`, what it applied unless the Kustomization is guarded (kustomization_controller.go
 * finalize); Argo CD deletes an Application its ApplicationSet no longer generates, and its
 * resources only with `resources-finalizer.argocd.argoproj.io` (applicationset_controller.go
 * deleteInCluster; appcontroller.go finalizeApplicationDeletion).
 */
describe.each(REPLAYED_ENGINES)('%s: the last export removed', (engine) => {
  test('the member no longer holds the ServiceExport', async () => {
    const r = await lastExportRemoved(engine);
    expect(r.before).toBe(true);
    expect(r.after, r.log.slice(-30).join('\n')).toBe(false);
    expect(r.stuck).toEqual([]);
  });
});
