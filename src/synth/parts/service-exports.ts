import { isActiveMember } from '../../model/effective';
import type { ClusterSet } from '../../model/clusterset';
import { serviceExport } from '../objects/service-export';
import type { BundlePart } from './context';

/** Whether a member exports a Service: listed by ID, or every member for "*". */
export const exportsService = (service: ClusterSet['spec']['services'][number], clusterID: string): boolean =>
  service.exportFrom === '*' || service.exportFrom.includes(clusterID);

/** On a member, a ServiceExport for each Service it exports; none while it withdraws (no ClusterSet to export through). */
export const serviceExports: BundlePart = ({ definition, cluster }) =>
  isActiveMember(cluster)
    ? definition.spec.services
        .filter((service) => exportsService(service, cluster.clusterID))
        .map((service) => serviceExport({ name: service.name, namespace: service.namespace }))
    : [];
