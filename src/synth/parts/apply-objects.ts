import { ApiObject } from 'cdk8s';
import type { Construct } from 'constructs';
import type { KubeObject } from '../../kube/kube-object';

/**
 * The one door into a chart: plain objects become L1 ApiObjects, with readable ids. Two objects
 * with one kind, Namespace and name get distinct ids, so the duplicate reaches the layout stage's
 * `output-collision` check instead of failing inside cdk8s.
 */
export function addObjects(scope: Construct, objects: readonly KubeObject[]): void {
  for (const o of objects) {
    const base = [o.kind, o.metadata.namespace, o.metadata.name].filter(Boolean).join('-');
    let id = base;
    for (let n = 2; scope.node.tryFindChild(id); n++) id = `${base}-${n}`;
    new ApiObject(scope, id, o as ConstructorParameters<typeof ApiObject>[2]);
  }
}
