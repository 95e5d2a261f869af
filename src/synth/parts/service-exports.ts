import { isActiveMember } from '../../model/effective';
import { exportsService } from '../../model/exports-service';
import { serviceExport } from '../objects/service-export';
import type { BundlePart } from './context';

/** On a member, a ServiceExport for each Service it exports; none while it withdraws (no ClusterSet to export through). */
export const serviceExports: BundlePart = ({ definition, cluster }) =>
  isActiveMember(cluster)
    ? definition.spec.services
        .filter((service) => exportsService(service, cluster.clusterID))
        .map((service) => serviceExport({ name: service.name, namespace: service.namespace }))
    : [];
