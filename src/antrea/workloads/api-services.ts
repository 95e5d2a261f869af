import type { IAPIService } from 'kubernetes-models/apiregistration.k8s.io/v1/APIService';
import type { IService } from 'kubernetes-models/v1/Service';
import type { KubeObject } from '../../kube/kube-object';
import { ANTREA_NAMESPACE, ANTREA_SERVICE, APP_LABELS, componentLabels } from './constants';

/** labels the controller uses to find the objects whose caBundle it injects */
export const SERVED_BY_CONTROLLER = { app: 'antrea', 'served-by': 'antrea-controller' } as const;

/** The `antrea` Service in front of the controller API (APIServices and webhooks point at it). */
export function antreaService(): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name: ANTREA_SERVICE, namespace: ANTREA_NAMESPACE, labels: { ...APP_LABELS } },
    spec: {
      ports: [{ port: 443, protocol: 'TCP', targetPort: 'api' }],
      selector: componentLabels('antrea-controller'),
    },
  } satisfies IService;
}

/** aggregated API groups served by antrea-controller */
const API_GROUPS = [
  ['controlplane.antrea.io', 'v1beta2'],
  ['system.antrea.io', 'v1beta1'],
  ['stats.antrea.io', 'v1alpha1'],
] as const;

export function antreaApiServices(): KubeObject[] {
  return API_GROUPS.map(
    ([group, version]) =>
      ({
        apiVersion: 'apiregistration.k8s.io/v1',
        kind: 'APIService',
        metadata: { name: `${version}.${group}`, labels: { ...SERVED_BY_CONTROLLER } },
        spec: {
          group,
          groupPriorityMinimum: 100,
          version,
          versionPriority: 100,
          service: { name: ANTREA_SERVICE, namespace: ANTREA_NAMESPACE },
        },
      }) satisfies IAPIService,
  );
}
