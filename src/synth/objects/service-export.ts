import type { KubeObject } from '../../kube/kube-object';

export interface ServiceExportProps {
  /** the exported Service */
  readonly name: string;
  readonly namespace: string;
}

/** mcs-api ServiceExport: no spec; its name and Namespace select the Service to export. */
export const serviceExport = (props: ServiceExportProps): KubeObject => ({
  apiVersion: 'multicluster.x-k8s.io/v1alpha1',
  kind: 'ServiceExport',
  metadata: { name: props.name, namespace: props.namespace },
});
