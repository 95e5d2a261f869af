import { ApiObject } from 'cdk8s';
import type { Construct } from 'constructs';

export interface ControllerNamespaceProps {
  readonly name: string;
}

/**
 * A controller Namespace that no upstream manifest creates. Like every Namespace it is guarded
 * against pruning by the delivery annotations: deleting it would delete the controller and,
 * for the leader, every ResourceExport and member credential.
 */
export class ControllerNamespace extends ApiObject {
  constructor(scope: Construct, id: string, props: ControllerNamespaceProps) {
    super(scope, id, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: props.name } });
  }
}
