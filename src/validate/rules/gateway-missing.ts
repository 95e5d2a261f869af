import { members } from '../../model/effective';
import { activeGateways } from '../../model/gateways';
import type { ModelRule } from '../rule';

export const gatewayMissing: ModelRule = {
  id: 'gateway-missing',
  severity: 'error',
  description: 'a member has no Gateway candidates',
  validate({ clusters, report }) {
    for (const c of members(clusters)) {
      if (activeGateways(c.cluster).length > 0) continue;
      report({
        path: [...c.path, 'gateways'],
        message: `member "${c.clusterID}" has no Gateway candidates`,
        hint: 'list at least one Node under gateways (two for failover); cross-cluster traffic goes through the Gateway',
      });
    }
  },
};
