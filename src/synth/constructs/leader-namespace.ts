import { ApiObject } from 'cdk8s';
import type { Construct } from 'constructs';
import { GUARD_ANNOTATIONS } from '../guards';

export interface LeaderNamespaceProps {
  /** the leader controller Namespace (the common area) */
  readonly name: string;
}

/**
 * The leader's common area. Upstream ships no Namespace object for it; deleting it would
 * delete every ResourceExport and member credential, so both engines are told never to.
 */
export class LeaderNamespace extends ApiObject {
  constructor(scope: Construct, id: string, props: LeaderNamespaceProps) {
    super(scope, id, {
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name: props.name, annotations: { ...GUARD_ANNOTATIONS } },
    });
  }
}
