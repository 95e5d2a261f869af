import { ApiObject } from 'cdk8s';
import type { Construct } from 'constructs';

export interface ServiceExportProps {
  /** the exported Service */
  readonly name: string;
  readonly namespace: string;
}

/** mcs-api ServiceExport: no spec; its name and Namespace select the Service to export. */
export class ServiceExport extends ApiObject {
  constructor(scope: Construct, id: string, props: ServiceExportProps) {
    super(scope, id, {
      apiVersion: 'multicluster.x-k8s.io/v1alpha1',
      kind: 'ServiceExport',
      metadata: { name: props.name, namespace: props.namespace },
    });
  }
}
