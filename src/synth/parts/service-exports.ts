import type { ClusterSet } from '../../model/clusterset';
import { ServiceExport } from '../constructs/service-export';
import type { BundlePart } from './context';

/** Whether a member exports a Service: listed by ID, or every member for "*". */
export const exportsService = (service: ClusterSet['spec']['services'][number], clusterID: string): boolean =>
  service.exportFrom === '*' || service.exportFrom.includes(clusterID);

/** On a member, a ServiceExport for each Service it exports. */
export const serviceExports: BundlePart = (chart, { definition, cluster }) => {
  if (!cluster.isMember) return;
  for (const service of definition.spec.services) {
    if (!exportsService(service, cluster.clusterID)) continue;
    new ServiceExport(chart, `service-export-${service.namespace}-${service.name}`, { name: service.name, namespace: service.namespace });
  }
};
