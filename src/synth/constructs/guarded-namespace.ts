import { ApiObject } from 'cdk8s';
import type { Construct } from 'constructs';
import { GUARD_ANNOTATIONS } from '../guards';

export interface GuardedNamespaceProps {
  readonly name: string;
}

/**
 * A controller Namespace that no upstream manifest creates. Deleting it would delete the
 * controller and, for the leader, every ResourceExport and member credential, so both
 * engines are told never to.
 */
export class GuardedNamespace extends ApiObject {
  constructor(scope: Construct, id: string, props: GuardedNamespaceProps) {
    super(scope, id, {
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name: props.name, annotations: { ...GUARD_ANNOTATIONS } },
    });
  }
}
