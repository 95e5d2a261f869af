import type { ModelRule } from '../rule';
import { servicePath } from '../exports';

export const exportUnknownCluster: ModelRule = {
  id: 'export-unknown-cluster',
  severity: 'error',
  description: 'exportFrom names a cluster that is not a member',
  validate({ definition, clusters, report }) {
    const byID = new Map(clusters.map((c) => [c.clusterID, c]));
    const memberIDs = clusters.filter((c) => c.isMember).map((c) => c.clusterID);
    definition.spec.services.forEach((service, i) => {
      if (service.exportFrom === '*') return;
      service.exportFrom.forEach((id, j) => {
        const cluster = byID.get(id);
        if (cluster?.isMember) return;
        const where = `${service.namespace}/${service.name}`;
        report({
          path: servicePath(i, 'exportFrom', j),
          message: cluster
            ? `service "${where}" is exported from "${id}", which is a dedicated leader (member: false)`
            : `service "${where}" is exported from "${id}", which is not a cluster of this set`,
          hint: `exportFrom lists member clusterIDs (${memberIDs.map((m) => `"${m}"`).join(', ')}) or is "*" for every member`,
          ...(cluster ? { related: [{ path: [...cluster.path, 'member'], message: `"${id}" is declared here as a non-member` }] } : {}),
        });
      });
    });
  },
};
