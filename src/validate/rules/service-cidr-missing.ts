import { members } from '../../model/effective';
import type { ModelRule } from '../rule';

export const serviceCidrMissing: ModelRule = {
  id: 'service-cidr-missing',
  severity: 'error',
  description: 'a member has no serviceCIDR while endpointIPType is ClusterIP',
  validate({ clusters, report }) {
    for (const c of members(clusters)) {
      if (c.network.endpointIPType !== 'ClusterIP' || c.cluster.serviceCIDR !== undefined) continue;
      const setting = c.networkPath('endpointIPType');
      // a per-cluster override is what asks for the range: point there
      const override = setting[1] === 'clusters';
      report({
        path: override ? setting : [...c.path, 'serviceCIDR'],
        message: `member "${c.clusterID}" uses ClusterIP endpoints but declares no serviceCIDR`,
        hint: "set serviceCIDR to the cluster's Service ClusterIP range (kube-apiserver --service-cluster-ip-range)",
      });
    }
  },
};
