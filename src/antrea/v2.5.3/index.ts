import { deriveRelease } from '../derive';
import { v2_6_3 } from '../v2.6.3';
import { core, leader, member } from './crds';

/** Antrea v2.5.3, as its differences from v2.6.3. */
export const v2_5_3 = deriveRelease(v2_6_3, {
  version: 'v2.5.3',
  crds: { core, leader, member },
  facts: { agentEventsApi: 'core' },
  // k8s.io/client-go v0.34.0 (v2.6 moved to 1.35, then 1.36.1)
  kubernetes: { oldest: '1.23', newest: '1.34' },
});
