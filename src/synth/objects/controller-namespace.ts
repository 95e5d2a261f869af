import type { KubeObject } from '../../kube/kube-object';

export interface ControllerNamespaceProps {
  readonly name: string;
}

/**
 * A controller Namespace that no upstream manifest creates. Like every Namespace it is guarded
 * against pruning by the delivery annotations: deleting it would delete the controller and,
 * for the leader, every ResourceExport and member credential.
 */
export const controllerNamespace = (props: ControllerNamespaceProps): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Namespace',
  metadata: { name: props.name },
});
