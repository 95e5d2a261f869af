import { Chart } from 'cdk8s';
import type { Construct } from 'constructs';
import type { BundleContext } from './parts/context';
import { bundleParts } from './parts';

/** Everything one cluster needs, by role: leader, member or both. */
export class BundleChart extends Chart {
  constructor(scope: Construct, id: string, ctx: BundleContext) {
    // explicit names only: Antrea's objects have fixed names
    super(scope, id, { disableResourceNameHashes: true });
    for (const part of bundleParts) part(this, ctx);
  }
}
