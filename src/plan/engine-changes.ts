import type { ClusterSet } from '../model/clusterset';
import { effectiveClusters } from '../model/effective';
import { deliveryModes, ENGINES } from '../delivery/engines';
import type { DeliveryMode, HandOverWords } from '../delivery/engine';
import { code } from '../markdown';
import type { ChecklistItem } from './checklist';
import type { PlanChange } from './plan';

/**
 * A change of delivery engine: the engine that delivered the bundles loses its objects from
 * `dist/`, but what it runs in the clusters stays and keeps acting until someone removes it (each
 * engine's `handOver` words say how: delivery/argocd/hand-over.ts, delivery/flux/hand-over.ts).
 * Until then both engines apply the same objects, so the old engine goes only once the new one
 * delivers. The new engine takes over what runs (server-side apply, the same objects).
 */

const modesOf = (d: ClusterSet) => deliveryModes(d, effectiveClusters(d));
const names = (modes: readonly DeliveryMode[]) => modes.map((m) => m.name).join(' and ');
/** the plan has always said what the leaving engines' objects do with Flux's first (the registry's order reversed) */
const fluxFirst = (modes: readonly DeliveryMode[]) => [...modes].reverse();
/** what a delivered cluster reads in each engine: "Healthy (Argo CD) or Ready (Flux)" */
const healthyIn = (modes: readonly DeliveryMode[]) =>
  [...new Set(modes.map((m) => m.engine))].map((e) => `${ENGINES[e].healthy} (${ENGINES[e].title})`).join(' or ');

type Removal = ReturnType<HandOverWords['removal']>;

/**
 * The engines a change stops and starts using (a hub Flux and one Flux per cluster are two
 * engines), each leaving one with the checklist item that removes its objects.
 */
function engineMoves(before: ClusterSet, after: ClusterSet): { leaving: { mode: DeliveryMode; removal: Removal }[]; coming: DeliveryMode[] } {
  const [was, now] = [modesOf(before), modesOf(after)];
  const ids = (ms: readonly DeliveryMode[]) => new Set(ms.map((m) => m.id));
  const [wasIds, nowIds] = [ids(was), ids(now)];
  return {
    leaving: was.filter((m) => !nowIds.has(m.id)).map((mode) => ({ mode, removal: ENGINES[mode.engine].handOver.removal(before, after, mode, now) })),
    coming: now.filter((m) => !wasIds.has(m.id)),
  };
}

/** The plan's line for a change of delivery engine: destructive, with the hand-over in order. */
export function engineChange(cs: string, before: ClusterSet, after: ClusterSet): PlanChange | undefined {
  const moves = engineMoves(before, after);
  const { coming } = moves;
  const leaving = moves.leaving.map((l) => l.mode);
  if (leaving.length === 0) return undefined;
  const to = coming.length > 0 ? names(coming) : 'nobody: spec.delivery no longer names an engine';
  const details = [...fluxFirst(leaving).map((m) => ENGINES[m.engine].handOver.detail(cs)), 'until the old engine is removed, both apply the same objects'];
  // a removal the new engine's objects would turn destructive comes before them (HandOverWords.removal's `first`)
  const first = moves.leaving.filter((l) => l.removal.first).map((l) => l.mode);
  const later = moves.leaving.filter((l) => !l.removal.first).map((l) => l.mode);
  const removalSteps = (modes: readonly DeliveryMode[]) =>
    fluxFirst(modes)
      .map((m) => ENGINES[m.engine].handOver.removalStep)
      .join('');
  const steps = [
    `before merging, ${prepareStep(coming, "the ClusterSet's README")}`,
    ...(first.length > 0
      ? [
          `after merging and before anything else, remove the objects of ${names(first)} for ${cs} that the new engine's objects would take over and delete, with the checklist's commands${removalSteps(first)}: what they applied stays`,
        ]
      : []),
    coming.length > 0
      ? `after merging, apply ${names(coming)}'s objects from dist/${cs}/ and wait until every cluster is ${healthyIn(coming)}`
      : `after merging, nothing delivers ${cs}: the clusters keep running what was applied`,
    ...(later.length > 0
      ? [`then remove ${names(later)}'s objects of ${cs} with the checklist's commands${removalSteps(later)}: what they applied stays`]
      : []),
  ];
  return {
    impact: 'destructive',
    clusterSet: cs,
    text: `the bundles are delivered by ${to} instead of ${names(leaving)}: ${names(leaving)} keeps applying them until its objects are removed`,
    details,
    steps,
    about: { delivery: true },
  };
}

/** What is done before merging a change of delivery engine, in the plan's steps and in the checklist. */
const prepareStep = (coming: readonly DeliveryMode[], readme: string) =>
  coming.length > 0
    ? `prepare ${names(coming)} as ${readme} says once merged ("${coming.map((m) => m.section).join('", "')}": destinations or kubeconfig Secrets, the source)`
    : 'decide who applies the bundles from now on: by hand, layer by layer (the README\'s "Order")';

/** The checklist's items for a change of delivery engine: the new engine set up, then the old one's objects removed. */
export function engineHandOverItems(before: ClusterSet, after: ClusterSet): ChecklistItem[] {
  const { leaving, coming } = engineMoves(before, after);
  if (leaving.length === 0) return [];
  const cs = after.metadata.name;
  const removals = leaving.map((l) => l.removal);
  const item = ({ text, commands }: { text: string; commands?: string[] }): ChecklistItem => ({
    clusterSet: cs,
    when: 'after merging',
    text,
    ...(commands && { commands }),
  });
  const prepare = prepareStep(coming, code(`dist/${cs}/README.md`));
  return [
    { clusterSet: cs, when: 'before merging', text: `${prepare[0]!.toUpperCase()}${prepare.slice(1)}.` },
    // a removal the new engine's objects would turn destructive comes before them
    ...removals.filter((r) => r.first).map(item),
    ...coming.map((m) =>
      item({
        text: `Deliver ${code(cs)} with ${m.name}: apply its objects as ${code(`dist/${cs}/README.md`)}, "${m.section}", shows, and wait until every cluster is Healthy or Ready.`,
      }),
    ),
    ...removals.filter((r) => !r.first).map(item),
  ];
}
