import { Chart } from 'cdk8s';
import type { Construct } from 'constructs';
import type { BundleContext } from './parts/context';
import { bundleParts } from './parts';
import { addObjects } from './parts/apply-objects';

/** Everything one cluster needs, by role: leader, member or both. */
export class BundleChart extends Chart {
  constructor(scope: Construct, id: string, ctx: BundleContext) {
    // explicit names only: Antrea's objects have fixed names
    super(scope, id, { disableResourceNameHashes: true });
    // every object enters the chart through one door, as plain data
    for (const part of bundleParts) addObjects(this, part(ctx));
  }
}
