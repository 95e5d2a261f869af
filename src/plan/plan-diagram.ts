import { clusterSetDiagram, mermaidBlock, type DiagramMarks } from '../diagram/clusterset-diagram';
import type { DiagramClass, DiagramMark } from '../diagram/graph';
import type { ClusterSet } from '../model/clusterset';
import { effectiveClusters } from '../model/effective';
import { IMPACTS, type Impact, type Plan } from './plan';

const IMPACT_STYLE: Record<Impact, Omit<DiagramClass, 'name'>> = {
  refused: { style: 'fill:#e5e7eb,stroke:#111827,stroke-dasharray:6 3,color:#000', legend: 'refused: Antrea rejects this change' },
  destructive: { style: 'fill:#f9d0d0,stroke:#b00020,color:#000', legend: 'destructive: objects deleted or orphaned' },
  disruptive: { style: 'fill:#fde2b8,stroke:#b45309,color:#000', legend: 'disruptive: cross-cluster traffic interrupted' },
  rollout: { style: 'fill:#d6e6fb,stroke:#1d4ed8,color:#000', legend: 'rollout: Pods restart' },
  safe: { style: 'fill:#d8f3df,stroke:#15803d,color:#000', legend: 'safe' },
};

/** The impact classes as the diagram draws them, most severe first (a group takes its worst). */
const IMPACT_CLASSES: readonly DiagramClass[] = IMPACTS.map((name) => ({ name, ...IMPACT_STYLE[name] }));

/**
 * The head's diagram of one ClusterSet with the plan's change drawn on it: each cluster, Service,
 * policy and Tier a change concerns (PlanChange.about; a change without it concerns the whole
 * ClusterSet) takes the class of its most severe change; what the base had and the head lacks is
 * drawn as removed. A large fleet shows only the touched part (clusterSetDiagram). Answers ''
 * when the plan holds no definitions or no diagram fits in `maxChars` (Markdown characters).
 */
export function planDiagram(plan: Plan, clusterSet: string, maxChars: number): string {
  const head = plan.definitions?.head.get(clusterSet);
  const base = plan.definitions?.base.get(clusterSet);
  const drawn = head ?? base;
  if (!drawn) return '';
  const marks = changeMarks(plan, clusterSet, base, head);
  const intro = `The change on the ClusterSet${head ? '' : ' (removed: drawn as it was)'}: each part takes the class of its most severe change; the legend is in the diagram.`;
  const d = clusterSetDiagram(drawn, { marks, classes: IMPACT_CLASSES, maxChars: maxChars - intro.length - 20 });
  return d ? `${intro}\n\n${mermaidBlock(d)}` : '';
}

const rank = (i: Impact) => IMPACTS.indexOf(i);

function changeMarks(plan: Plan, cs: string, base: ClusterSet | undefined, head: ClusterSet | undefined): DiagramMarks {
  const impacts = {
    clusters: new Map<string, Impact>(),
    services: new Map<string, Impact>(),
    policies: new Map<string, Impact>(),
    tiers: new Map<string, Impact>(),
  };
  let whole: Impact | undefined;
  let delivery: Impact | undefined;
  const worse = (a: Impact | undefined, b: Impact) => (a === undefined || rank(b) < rank(a) ? b : a);
  const raise = (m: Map<string, Impact>, key: string, i: Impact) => m.set(key, worse(m.get(key), i));
  for (const c of plan.changes) {
    if (c.clusterSet !== cs) continue;
    if (!c.about || !head) {
      whole = worse(whole, c.impact);
      continue;
    }
    for (const id of c.about.clusters ?? []) raise(impacts.clusters, id, c.impact);
    for (const s of c.about.services ?? []) raise(impacts.services, s, c.impact);
    for (const p of c.about.policies ?? []) raise(impacts.policies, p, c.impact);
    for (const t of c.about.tiers ?? []) raise(impacts.tiers, t, c.impact);
    if (c.about.delivery) delivery = worse(delivery, c.impact);
  }

  const headClusters = head ? effectiveClusters(head) : [];
  const baseClusters = base ? effectiveClusters(base) : [];
  const services = (d: ClusterSet | undefined) => new Set(d?.spec.services.map((s) => `${s.namespace}/${s.name}`));
  const names = {
    clusters: [new Set(baseClusters.map((c) => c.clusterID)), new Set(headClusters.map((c) => c.clusterID))],
    services: [services(base), services(head)],
    policies: [new Set(base?.spec.policies.map((p) => p.name)), new Set(head?.spec.policies.map((p) => p.name))],
    tiers: [new Set(base?.spec.tiers.map((t) => t.name)), new Set(head?.spec.tiers.map((t) => t.name))],
  } as const;
  const marksOf = (kind: keyof typeof names): Map<string, DiagramMark> => {
    const [before, after] = names[kind];
    const out = new Map<string, DiagramMark>();
    for (const key of new Set([...after, ...before])) {
      const state = !before.has(key) ? 'added' : !after.has(key) ? 'removed' : 'changed';
      let impact = impacts[kind].get(key);
      // a change of the whole ClusterSet concerns every cluster, but restarts no Pods in one that joins
      if (kind === 'clusters' && whole && !(whole === 'rollout' && state === 'added')) impact = worse(impact, whole);
      // a part that comes or goes with no change naming it still shows
      if (impact === undefined && state !== 'changed') impact = whole ?? 'safe';
      if (impact !== undefined) out.set(key, { cls: impact, state });
    }
    return out;
  };
  const clusters = marksOf('clusters');
  return {
    clusters,
    services: marksOf('services'),
    policies: marksOf('policies'),
    tiers: marksOf('tiers'),
    ...(whole && { leader: { cls: whole, state: head ? (base ? 'changed' : 'added') : 'removed' } }),
    ...((delivery ?? whole) && { delivery: { cls: worse(delivery, whole ?? delivery!), state: 'changed' } }),
    ...(head && {
      removed: {
        clusters: baseClusters.filter((c) => !names.clusters[1].has(c.clusterID)),
        services: [...names.services[0]].filter((s) => !names.services[1].has(s)),
        policies: [...names.policies[0]].filter((p) => !names.policies[1].has(p)),
        tiers: [...names.tiers[0]].filter((t) => !names.tiers[1].has(t)),
      },
    }),
  };
}
