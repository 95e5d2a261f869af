// Validation time against ClusterSet size: every rule over 1,000 and 10,000 clusters.
// The address rules sweep sorted prefixes, so 10x the clusters should cost about 10x the time.
import { performance } from 'node:perf_hooks';
import { LATEST_RELEASE } from '../src/antrea/releases';
import type { Diagnostic } from '../src/diagnostics/diagnostic';
import type { SourceFile } from '../src/load/source-file';
import { ClusterSetSchema, type ClusterSetInput } from '../src/model/clusterset';
import type { ParsedClusterSet } from '../src/model/parse-clusterset';
import { effectiveClusters } from '../src/model/effective';
import { isFleetRule, isRawRule, type ModelRule, type Rule } from '../src/validate/rule';
import { allRules } from '../src/validate/rules';
import { podCidrOverlap } from '../src/validate/rules/pod-cidr-overlap';
import { runFleetRules, runRules } from '../src/validate/run-rules';

const dotted = (n: number) => [24, 16, 8, 0].map((s) => (n >>> s) & 255).join('.');
const ip = (text: string) => text.split('.').reduce((n, o) => n * 256 + Number(o), 0);

/** A valid definition: disjoint /24 Pod CIDRs, /28 Service CIDRs and one Gateway IP per cluster. */
export function syntheticClusterSet(count: number, options: { samePodCIDR?: boolean } = {}): ClusterSetInput {
  return {
    apiVersion: 'antrea-clusterset/v1alpha1',
    kind: 'ClusterSetDefinition',
    metadata: { name: 'bench' },
    spec: {
      antrea: { version: 'v2.7.0' },
      network: { podToPodConnectivity: true },
      leader: { clusterID: 'cluster-0', server: 'https://192.168.150.101:6443' },
      clusters: Array.from({ length: count }, (_, i) => ({
        clusterID: `cluster-${i}`,
        podCIDRs: [`${dotted(ip('10.0.0.0') + (options.samePodCIDR ? 0 : i * 256))}/24`],
        serviceCIDR: `${dotted(ip('172.16.0.0') + i * 16)}/28`,
        gateways: [{ node: `cluster-${i}-node1`, ip: dotted(ip('100.64.0.1') + i) }],
      })),
    },
  };
}

function parsed(definition: ClusterSetInput): ParsedClusterSet {
  // no YAML here (10,000 clusters exceed the loader's size limit): positions are not the point
  const source: SourceFile = { file: 'bench.yaml', text: '', data: definition, locate: () => ({ line: 1, column: 1, endLine: 1, endColumn: 1 }) };
  return { source, definition: ClusterSetSchema.parse(definition) };
}

function measure(runs: number, fn: () => void): { median: number; best: number } {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    fn();
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return { median: times[Math.floor(runs / 2)]!, best: times[0]! };
}

const median = (runs: number, fn: () => void) => measure(runs, fn).median;

/** Wall time of `runs` runs of the rules (as the compiler runs them), and the diagnostics of one run. */
function time(input: ParsedClusterSet, rules: readonly Rule[], runs = 7): { ms: number; best: number; diagnostics: Diagnostic[] } {
  let diagnostics: Diagnostic[] = [];
  const { median: ms, best } = measure(runs, () => runRules(input, (diagnostics = []), rules));
  return { ms, best, diagnostics };
}

const fmt = (ms: number) => `${ms.toFixed(1).padStart(8)} ms`;

export default function bench(): void {
  const small = parsed(syntheticClusterSet(1_000));
  const big = parsed(syntheticClusterSet(10_000));
  // warm-up at both sizes (JIT, lazy imports), then medians of 11 runs
  time(small, allRules, 3);
  time(big, allRules, 3);
  const a = time(small, allRules, 11);
  const b = time(big, allRules, 11);
  // on a busy machine the median wanders; the best run shows what the code costs
  console.log(`all ${allRules.length} rules,  1,000 clusters: median ${fmt(a.ms)}, best ${fmt(a.best)}  (${a.diagnostics.length} diagnostics)`);
  console.log(`all ${allRules.length} rules, 10,000 clusters: median ${fmt(b.ms)}, best ${fmt(b.best)}  (${b.diagnostics.length} diagnostics)`);
  console.log(`ratio 10k/1k: median ${(b.ms / a.ms).toFixed(1)}, best ${(b.best / a.best).toFixed(1)} (linear: 10, n log n: 13.3, quadratic: 100)`);

  // where the 10,000-cluster time goes, slowest first; values parsed once per definition are
  // shared by the address rules, so they are timed on one context whose cache is already warm
  const clusters = effectiveClusters(big.definition);
  const ctx = { definition: big.definition, clusters, release: LATEST_RELEASE, report: () => {} };
  for (const rule of allRules) if (!isRawRule(rule) && !isFleetRule(rule)) rule.validate(ctx);
  const perRule = allRules
    .filter((rule) => !isRawRule(rule) && !isFleetRule(rule))
    .map((rule) => ({ id: rule.id, ms: median(3, () => (rule as ModelRule).validate(ctx)) }))
    .sort((x, y) => y.ms - x.ms);
  console.log('slowest rules at 10,000 clusters (address values already parsed):');
  for (const r of perRule.slice(0, 5)) console.log(`  ${r.id.padEnd(32)}${fmt(r.ms)}`);

  // the worst case for the sweep: every cluster repeats one Pod CIDR, one diagnostic each
  const [worstSmall, worstBig] = [1_000, 10_000].map((n) => parsed(syntheticClusterSet(n, { samePodCIDR: true })));
  time(worstBig!, [podCidrOverlap], 3);
  const sameSmall = time(worstSmall!, [podCidrOverlap], 11);
  const sameBig = time(worstBig!, [podCidrOverlap], 11);
  console.log(
    `pod-cidr-overlap, one Pod CIDR everywhere: 1k ${fmt(sameSmall.ms)}, 10k ${fmt(sameBig.ms)} (${sameBig.diagnostics.length} diagnostics), ratio ${(sameBig.ms / sameSmall.ms).toFixed(1)}`,
  );

  // the rules across definitions: 10,000 clusters in two definitions whose names are
  // dash-prefixed ("bench", "bench-x"), the case where delivery names can meet, with Argo CD
  const fleetOf = (n: number) =>
    (['bench', 'bench-x'] as const).map((name, k) => {
      const d = syntheticClusterSet(n / 2);
      const clusters = d.spec.clusters.map((c, i) => ({ ...c, clusterID: `c${k}-${i}`, delivery: { argocd: { name: `c${k}-${i}` } } }));
      return parsed({
        ...d,
        metadata: { name },
        spec: {
          ...d.spec,
          leader: { ...d.spec.leader, clusterID: clusters[0]!.clusterID },
          clusters,
          delivery: { argocd: { namespace: 'argocd', repoURL: 'https://git.example.com/fleet.git' } },
        },
      });
    });
  const [fleetSmall, fleetBig] = [fleetOf(1_000), fleetOf(10_000)];
  const fleetTime = (defs: ParsedClusterSet[]) => median(3, () => runFleetRules(defs, []));
  const [fs, fb] = [fleetTime(fleetSmall), fleetTime(fleetBig)];
  console.log(`fleet rules, two definitions: 1,000 clusters ${fmt(fs)}, 10,000 clusters ${fmt(fb)}, ratio ${(fb / fs).toFixed(1)}`);
}
