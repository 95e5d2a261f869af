import { describe, expect, test } from 'vitest';
import { exportHealthUnderFlux } from './delivery-scenarios';

/**
 * #38 item 7: Flux shows a ServiceExport's health on its exports unit, as Argo CD shows it on the
 * exports Application: `healthCheckExprs` with the ServiceExport rule (src/health/), evaluated by
 * kustomize-controller's CEL status reader. Antrea's member controller writes the status
 * (serviceexport_controller.go updateSvcExportStatus). Nothing depends on the exports units, so
 * their wait holds back no layer and no other cluster.
 */
describe('flux: the exports unit of Namespace demo', () => {
  test('an ExternalName Service (ServiceTypeNotSupported) fails it; the ClusterSet does not wait; a real Service makes it Ready', async () => {
    const r = await exportHealthUnderFlux('ExternalName');
    expect(r.before).toMatchObject({ state: 'Failed', message: expect.stringMatching(/ServiceExport demo\/nginx/) as unknown });
    expect(r.others).toEqual([]);
    expect(r.after.state).toBe('Ready');
    expect(r.valid).toMatchObject({ status: 'True' });
  });

  test('no Service yet (ServiceNotFound): not Ready until the application creates it, holding nothing else', async () => {
    const r = await exportHealthUnderFlux('absent');
    expect(r.before.state).not.toBe('Ready');
    expect(r.others).toEqual([]);
    expect(r.after.state).toBe('Ready');
  });
});
