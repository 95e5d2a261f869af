import { reportMismatches } from '../member-consistency';
import type { ModelRule } from '../rule';

export const stretchedPolicyMismatch: ModelRule = {
  id: 'stretched-policy-mismatch',
  severity: 'error',
  description: 'stretchedNetworkPolicy differs between clusters',
  validate({ clusters, report }) {
    // every agent, controller and mc-controller must agree, the dedicated leader's included
    reportMismatches(clusters, 'stretchedNetworkPolicy', report, {
      what: 'stretchedNetworkPolicy',
      hint: () => 'turn stretchedNetworkPolicy on or off for the whole set in spec.network, without per-cluster overrides',
    });
  },
};
