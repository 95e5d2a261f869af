import { expect, test } from 'vitest';
import { exportsRetryPinned } from './delivery-scenarios';

/**
 * #38 item 4: an exports Application retries without end while a Namespace is missing; a retry
 * syncs the revision that failed unless `retry.refresh` (Argo CD 3.2+) says to take the latest
 * (controller/appcontroller.go processRequestedAppOperation), and no new operation starts while
 * one is retrying (autoSync). A later export of the same member must still arrive.
 */
test('argocd: an export added while another Namespace is missing reaches the member', async () => {
  const r = await exportsRetryPinned();
  expect(r.shopExported, r.log.slice(-20).join('\n')).toBe(true);
  expect(r.exportsApp).toMatchObject({ revision: 'latest' });
});
