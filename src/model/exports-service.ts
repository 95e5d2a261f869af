import type { ClusterSet } from './clusterset';

/** Whether a member exports a Service: listed by ID, or every member for "*". */
export const exportsService = (service: ClusterSet['spec']['services'][number], clusterID: string): boolean =>
  service.exportFrom === '*' || service.exportFrom.includes(clusterID);
