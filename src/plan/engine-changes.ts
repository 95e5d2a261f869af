import type { ClusterSet } from '../model/clusterset';
import { effectiveClusters } from '../model/effective';
import { deliveryModes, ENGINES, inWordsOrder } from '../delivery/registry';
import type { DeliveryMode, HandOverWords } from '../delivery/engine';
import { code } from '../text/markdown';
import { bundlePath } from '../delivery/engine-names';
import { releaseFieldManager } from '../kube/kubectl-command';
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
/** the leaving engines' words in the registry's stated order (WORDS_ORDER) */
const inOrder = (modes: readonly DeliveryMode[]) => inWordsOrder(modes, (m) => m.engine);
/** what a delivered cluster reads in each engine: "Healthy (Argo CD) or Ready (Flux)" */
const healthyIn = (modes: readonly DeliveryMode[]) =>
  [...new Set(modes.map((m) => m.engine))].map((e) => `${ENGINES[e].readme.healthy} (${ENGINES[e].readme.title})`).join(' or ');

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
  const details = [...inOrder(leaving).map((m) => ENGINES[m.engine].handOver.detail(cs)), 'until the old engine is removed, both apply the same objects'];
  // a removal the new engine's objects would turn destructive comes before them (HandOverWords.removal's `first`)
  const first = moves.leaving.filter((l) => l.removal.first).map((l) => l.mode);
  const later = moves.leaving.filter((l) => !l.removal.first).map((l) => l.mode);
  const removalSteps = (modes: readonly DeliveryMode[]) =>
    inOrder(modes)
      .map((m) => ENGINES[m.engine].handOver.removalStep)
      .join('');
  const beforeMerging = leaving.flatMap((m) => ENGINES[m.engine].handOver.beforeMerging?.(before) ?? []);
  const steps = [
    ...beforeMerging.map((s) => `before merging, ${s.text.charAt(0).toLowerCase()}${s.text.slice(1)}`),
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
    ...managersToRelease(leaving, coming).map(
      (m) => `last, ${m} lets go of the fields it still co-owns in every cluster (the checklist's commands), or a field a later change drops stays`,
    ),
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

/**
 * The field managers of the leaving engines that no coming engine applies as (a hub Flux and one
 * Flux per cluster are both `kustomize-controller`), when an engine comes: each still co-owns
 * every field it applied, so a field a later change drops from git stays (kustomize-controller's
 * clean-up takes over only `kubectl*`, `before-first-apply` and its own managers, fluxcd/pkg ssa
 * `cleanupMetadata`; Argo CD migrates only `kubectl-client-side-apply`,
 * `performClientSideApplyMigration`) until that manager lets go of them. With no engine coming,
 * nobody else owns the fields and letting go would remove them: nothing is released.
 */
function managersToRelease(leaving: readonly DeliveryMode[], coming: readonly DeliveryMode[]): string[] {
  if (coming.length === 0) return [];
  const staying = new Set(coming.map((m) => ENGINES[m.engine].handOver.fieldManager));
  return [...new Set(leaving.map((m) => ENGINES[m.engine].handOver.fieldManager))].filter((m) => !staying.has(m));
}

/** The checklist's items for a change of delivery engine: the new engine set up, then the old one's objects removed. */
export function engineHandOverItems(before: ClusterSet, after: ClusterSet): ChecklistItem[] {
  const { leaving, coming } = engineMoves(before, after);
  if (leaving.length === 0) return [];
  const cs = after.metadata.name;
  const removals = leaving.map((l) => l.removal);
  const item = ({ text, commands }: { text: string; commands?: readonly string[] }): ChecklistItem => ({
    clusterSet: cs,
    when: 'after merging',
    text,
    ...(commands && { commands }),
  });
  const prepare = prepareStep(coming, code(`dist/${cs}/README.md`));
  return [
    // what the merge itself would make a leaving engine delete (an app-of-apps that prunes) is done before it
    ...leaving.flatMap((l) => ENGINES[l.mode.engine].handOver.beforeMerging?.(before) ?? []).map((s) => ({ ...item(s), when: 'before merging' as const })),
    { clusterSet: cs, when: 'before merging', text: `${prepare[0]!.toUpperCase()}${prepare.slice(1)}.` },
    // a removal the new engine's objects would turn destructive comes before them
    ...removals.filter((r) => r.first).map(item),
    ...coming.map((m) =>
      item({
        text: `Deliver ${code(cs)} with ${m.name}: apply its objects as ${code(`dist/${cs}/README.md`)}, "${m.section}", shows, and wait until every cluster is Healthy or Ready.`,
      }),
    ),
    ...removals.filter((r) => !r.first).map(item),
    ...managersToRelease(
      leaving.map((l) => l.mode),
      coming,
    ).map((manager) =>
      item({
        text: `Last, once the old engine's objects are gone: the field manager ${code(manager)} still co-owns every field it applied, so a field a later change drops from git (a retired Gateway's annotation) would stay. Let it go of them in each cluster: it applies each object with its identity only, and server-side apply keeps what ${names(coming)} applies too.`,
        commands: effectiveClusters(before).map((c) =>
          releaseFieldManager(c.clusterID, bundlePath(after.spec.delivery[coming[0]!.engine]!.path, cs, c.clusterID), manager),
        ),
      }),
    ),
  ];
}
