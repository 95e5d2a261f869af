// The diagrams' size (issue #30), one table: for fleets of 3 to 10,000 clusters, the README diagram
// (characters as Mermaid counts them, edges, folded or not) against GitHub's Mermaid limits
// (50,000 characters, 500 edges); the plan comment of a one-member change and of a change to every
// member (the whole comment against 65,536 characters, and its diagram); and the time the diagram
// adds to the README, as a share of the README's own.
import { performance } from 'node:perf_hooks';
import { releaseFor } from '../src/antrea/releases';
import { clusterSetDiagram } from '../src/diagram/clusterset-diagram';
import { MERMAID_MAX_EDGES, MERMAID_MAX_TEXT, mermaidTextSize } from '../src/diagram/mermaid';
import { ClusterSetSchema, type ClusterSet } from '../src/model/clusterset';
import { effectiveClusters } from '../src/model/effective';
import { planChanges } from '../src/plan/plan-changes';
import type { Plan } from '../src/plan/plan';
import { renderPlan } from '../src/plan/render-plan';
import { clusterSetNotes } from '../src/synth/notes';
import { fleet } from './fleet';

const planBetween = (base: ClusterSet, head: ClusterSet): Plan => {
  const revision = (d: ClusterSet) => ({ outputs: [], definitions: new Map([[d.metadata.name, { definition: d, file: 'clustersets/fleet.yaml' }]]) });
  return planChanges(revision(base), revision(head));
};

/** The comment's length, and its diagram's characters and edges (`-` when it has none). */
function comment(plan: Plan): string {
  const md = renderPlan('markdown', plan, { base: 'main', head: 'work tree' });
  const block = /```mermaid\n([\s\S]*?)```/.exec(md)?.[1];
  const edges = block ? block.split('\n').filter((l) => /-->|-\.->|~~~/.test(l)).length : 0;
  return `${md.length.toLocaleString('en')} | ${block ? `${mermaidTextSize(block).toLocaleString('en')} / ${edges}` : '-'}`;
}

export default function bench(): void {
  console.log(`limits: ${MERMAID_MAX_TEXT.toLocaleString('en')} characters and ${MERMAID_MAX_EDGES} edges per diagram, 65,536 characters per comment\n`);
  console.log(
    '| clusters | README diagram: characters / edges | folded | plan, one Gateway moved: comment | its diagram | plan, every Gateway moved and one member gone: comment | its diagram | diagram / README time |',
  );
  console.log('|---:|---:|---|---:|---:|---:|---:|---:|');
  const release = releaseFor('v2.7.0')!;
  for (const n of [3, 10, 30, 31, 100, 300, 1000, 3000, 10_000]) {
    const base = ClusterSetSchema.parse(fleet(n));
    const d = clusterSetDiagram(base)!;
    const one = structuredClone(base);
    one.spec.clusters[Math.min(2, n - 1)]!.gateways = [{ node: 'moved' }];
    const every = structuredClone(base);
    for (const c of every.spec.clusters) if (c.gateways.length) c.gateways = [{ node: `${c.clusterID}-moved` }];
    every.spec.clusters = every.spec.clusters.filter((c) => c.clusterID !== 'cluster-1');

    // time: the README with its diagram against the diagram alone, best of 5
    const clusters = effectiveClusters(base);
    const best = (fn: () => unknown) =>
      Math.min(
        ...Array.from({ length: 5 }, () => {
          const start = performance.now();
          fn();
          return performance.now() - start;
        }),
      );
    const notes = best(() => clusterSetNotes(base, clusters, release));
    const diagram = best(() => clusterSetDiagram(base, {}, clusters));
    console.log(
      `| ${n.toLocaleString('en')} | ${d.chars.toLocaleString('en')} / ${d.edges} | ${d.folded ? 'yes' : 'no'} | ${comment(planBetween(base, one))} | ${comment(planBetween(base, every))} | ${((diagram / notes) * 100).toFixed(0)} % |`,
    );
  }
}
