import { members } from '../../model/effective';
import { reportMismatches } from '../member-consistency';
import type { ModelRule } from '../rule';

export const tunnelTypeMismatch: ModelRule = {
  id: 'tunnel-type-mismatch',
  severity: 'error',
  description: 'members use different tunnelType values',
  validate({ clusters, report }) {
    // Gateway-to-Gateway tunnels use each agent's own type (antrea docs/multicluster/architecture.md)
    reportMismatches(members(clusters), 'tunnelType', report, {
      what: 'tunnelType',
      hint: (ref) => `use tunnelType "${ref.network.tunnelType}" in every member: set it once in spec.network and drop per-cluster overrides`,
    });
  },
};
