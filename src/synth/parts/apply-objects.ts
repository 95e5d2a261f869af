import { ApiObject } from 'cdk8s';
import type { Construct } from 'constructs';
import type { KubeObject } from '../kube-object';

/** Adds plain objects as L1 ApiObjects, with ids that are unique and readable. */
export function addObjects(scope: Construct, objects: readonly KubeObject[]): void {
  for (const o of objects) {
    const id = [o.kind, o.metadata.namespace, o.metadata.name].filter(Boolean).join('-');
    new ApiObject(scope, id, o as ConstructorParameters<typeof ApiObject>[2]);
  }
}
