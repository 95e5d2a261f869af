import { members } from '../../model/effective';
import { reportMismatches } from '../member-consistency';
import type { ModelRule } from '../rule';

export const endpointIPTypeMismatch: ModelRule = {
  id: 'endpoint-ip-type-mismatch',
  severity: 'error',
  description: 'members use different endpointIPType values',
  validate({ clusters, report }) {
    // one endpoint type per ClusterSet (antrea docs/multicluster/user-guide.md)
    reportMismatches(members(clusters), 'endpointIPType', report, {
      what: 'endpointIPType',
      hint: (ref) => `use endpointIPType "${ref.network.endpointIPType}" in every member: set it once in spec.network`,
    });
  },
};
