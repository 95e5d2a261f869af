// Synthesis and emit against fleet size, and the architecture's "one App per bundle" decision:
// per-bundle Apps should scale linearly, one App for the whole fleet superlinearly.
import { App } from 'cdk8s';
import { performance } from 'node:perf_hooks';
import { LATEST_RELEASE } from '../src/antrea/releases';
import { EmitCache, layoutClusterSet } from '../src/check/layout';
import { ClusterSetSchema } from '../src/model/clusterset';
import { effectiveClusters } from '../src/model/effective';
import { BundleChart } from '../src/synth/bundle-chart';
import { synthClusterSet } from '../src/synth/synth-clusterset';
import { syntheticClusterSet } from './validate.bench';

function parsed(count: number) {
  const definition = ClusterSetSchema.parse(syntheticClusterSet(count));
  const source = { file: 'bench.yaml', text: '', data: definition, locate: () => ({ line: 1, column: 1, endLine: 1, endColumn: 1 }) };
  return { source, definition };
}

const ms = (fn: () => unknown) => {
  const start = performance.now();
  fn();
  return performance.now() - start;
};

/** The same charts in one App: what the architecture decided against. */
function oneAppForFleet(count: number) {
  const { definition } = parsed(count);
  const clusters = effectiveClusters(definition);
  const app = new App();
  const charts = clusters.map((cluster) => new BundleChart(app, cluster.clusterID, { definition, clusters, cluster, release: LATEST_RELEASE }));
  for (const c of charts) c.toJson();
}

export default function bench(): void {
  const sizes = [50, 200];
  synthClusterSet(parsed(10)); // warm-up
  const synth = sizes.map((n) => ms(() => synthClusterSet(parsed(n))));
  const emit = sizes.map((n) => {
    const output = synthClusterSet(parsed(n));
    return ms(() => layoutClusterSet(output, [], new EmitCache()));
  });
  const fleet = sizes.map((n) => ms(() => oneAppForFleet(n)));
  for (const [i, n] of sizes.entries()) {
    console.log(
      `${String(n).padStart(4)} clusters: synth (App per bundle) ${synth[i]!.toFixed(0).padStart(6)} ms, emit ${emit[i]!.toFixed(0).padStart(6)} ms, one App for the fleet ${fleet[i]!.toFixed(0).padStart(6)} ms`,
    );
  }
  const k = sizes[1]! / sizes[0]!;
  console.log(
    `ratio ${sizes[1]}/${sizes[0]} (linear: ${k}): App per bundle ${(synth[1]! / synth[0]!).toFixed(1)}, emit ${(emit[1]! / emit[0]!).toFixed(1)}, one App ${(fleet[1]! / fleet[0]!).toFixed(1)}`,
  );
}
