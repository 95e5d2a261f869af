// Synthesis and the rest of synth's pipeline against fleet size, and the architecture's "one App
// per bundle" decision: per-bundle Apps should scale linearly, one App for the whole fleet
// superlinearly. The pipeline column is what `clusterset synth` runs after validation (build,
// check, layout, secret scans), into compile()'s memory sink.
import { App } from 'cdk8s';
import { performance } from 'node:perf_hooks';
import { LATEST_RELEASE } from '../src/antrea/releases';
import { ClusterSetSchema } from '../src/model/clusterset';
import { effectiveClusters } from '../src/model/effective';
import { gatewayPeerList, peersOf } from '../src/model/gateways';
import { memorySink } from '../src/pipeline/memory-sink';
import { runPipeline } from '../src/pipeline/pipeline';
import { BundleChart } from '../src/synth/bundle-chart';
import { clusterSetSources } from '../src/synth/synth-clusterset';
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
  const peers = gatewayPeerList(clusters);
  const charts = clusters.map(
    (cluster) => new BundleChart(app, cluster.clusterID, { definition, clusters, cluster, release: LATEST_RELEASE, peers: peersOf(peers, cluster) }),
  );
  for (const c of charts) c.toJson();
}

/** The bundles built as the pipeline builds them (its synth stage, clusterSetSources), one App each. */
const synthBundles = (count: number) => clusterSetSources(parsed(count)).sources.map((s) => s.synth());

/** The pipeline into memory, from the end of validation (the sink's begin) to the sink's finish. */
async function pipelineAfterValidation(count: number): Promise<number> {
  const sink = memorySink();
  let start = 0;
  let end = 0;
  const run = await runPipeline([{ sources: [parsed(count).source] }], {
    ...sink,
    begin: (...args) => {
      start = performance.now();
      return sink.begin!(...args);
    },
    finish: (diagnostics) => {
      end = performance.now();
      return sink.finish(diagnostics);
    },
  });
  const errors = run.diagnostics.filter((d) => d.severity === 'error');
  if (errors.length > 0 || !run.result) throw new Error(JSON.stringify(errors.slice(0, 3)));
  return end - start;
}

/** The fastest of three runs: the machine's other load only ever adds time. */
async function best(fn: () => number | Promise<number>): Promise<number> {
  let min = Infinity;
  for (let i = 0; i < 3; i++) min = Math.min(min, await fn());
  return min;
}

export default async function bench(): Promise<void> {
  const sizes = [50, 200];
  // warm-up: the first run compiles the schemas' validators and loads secretlint
  synthBundles(10);
  await pipelineAfterValidation(10);
  const synth: number[] = [];
  const pipeline: number[] = [];
  const fleet: number[] = [];
  for (const n of sizes) {
    synth.push(await best(() => ms(() => synthBundles(n))));
    pipeline.push(await best(() => pipelineAfterValidation(n)));
    fleet.push(await best(() => ms(() => oneAppForFleet(n))));
  }
  for (const [i, n] of sizes.entries()) {
    console.log(
      `${String(n).padStart(4)} clusters: synth (App per bundle) ${synth[i]!.toFixed(0).padStart(6)} ms, pipeline after validation ${pipeline[i]!.toFixed(0).padStart(6)} ms, one App for the fleet ${fleet[i]!.toFixed(0).padStart(6)} ms`,
    );
  }
  const k = sizes[1]! / sizes[0]!;
  console.log(
    `ratio ${sizes[1]!}/${sizes[0]!} (linear: ${k}): App per bundle ${(synth[1]! / synth[0]!).toFixed(1)}, pipeline ${(pipeline[1]! / pipeline[0]!).toFixed(1)}, one App ${(fleet[1]! / fleet[0]!).toFixed(1)}`,
  );
}
