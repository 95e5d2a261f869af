import { App, Chart } from 'cdk8s';
import type { Construct } from 'constructs';
import type { KubeObject } from '../kube/kube-object';
import type { BundleContext } from './parts/context';
import { bundleParts } from './parts';
import { addObjects } from './parts/apply-objects';

/** How every chart of bundle objects renders them: explicit names only (Antrea's objects have fixed names). */
const CHART_OPTIONS = { disableResourceNameHashes: true } as const;

/** Everything one cluster needs, by role: leader, member or both (shared parts aside: `renderedOnce`). */
export class BundleChart extends Chart {
  constructor(scope: Construct, id: string, ctx: BundleContext) {
    super(scope, id, CHART_OPTIONS);
    // every object enters the chart through one door, as plain data
    for (const part of bundleParts) addObjects(this, part(ctx));
  }
}

/** Rendered objects by the key of what they were built from, for every run of the process. */
const rendered = new Map<string, readonly KubeObject[]>();
const RENDERED_LIMIT = 256;

/**
 * Objects built from a few inputs rather than from the cluster (Antrea core, the same for every
 * cluster with the same Antrea settings), rendered by cdk8s as a BundleChart renders its objects,
 * once per distinct `key` in the process, and deeply frozen. A fleet's bundles then share one
 * value per object, which annotation, serialization and the schema checks handle once (by
 * identity) instead of once per cluster. `key` must determine everything `build` reads.
 */
export function renderedOnce(key: string, build: () => readonly KubeObject[]): readonly KubeObject[] {
  let objects = rendered.get(key);
  if (!objects) {
    const chart = new Chart(new App(), 'rendered-once', CHART_OPTIONS);
    addObjects(chart, build());
    objects = deepFreeze(chart.toJson() as KubeObject[]);
    if (rendered.size >= RENDERED_LIMIT) rendered.clear();
    rendered.set(key, objects);
  }
  return objects;
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value;
}
