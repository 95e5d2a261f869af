import { relative, resolve } from 'node:path';
import { memorySink, type InMemory } from '../pipeline/memory-sink';
import { runPipeline, type Sink } from '../pipeline/pipeline';
import { hasErrors, type Diagnostic } from '../diagnostics/diagnostic';
import { findDefinitionFiles } from '../load/load-clustersets';
import { ClusterSetSchema, type ClusterSet } from '../model/clusterset';
import { effectiveClusters } from '../model/effective';
import type { ParsedClusterSet } from '../model/parse-clusterset';
import { planChanges } from '../plan/plan-changes';
import type { Plan, PlanChange } from '../plan/plan';
import type { PlanResult } from '../plan/run-plan';
import type { KubeObject } from '../kube/kube-object';
import { ALL_ENGINES } from '../delivery/registry';
import type { ClusterSetOutput } from '../synth/synth-clusterset';
import { dumpKinds, type DumpRole } from './dump-kinds';
import { importDefinition } from './import-definition';
import { liveConnections } from './live-connections';
import { projectOnto } from './project-onto';
import { adoptionChanges } from './adoption-changes';
import { groupKind, readLiveClusterSet, text, type LiveCluster, type LiveClusterSet } from './live-cluster';
import { readContext } from './read-context';
import { runningCredentials } from './running-credentials';
import { dumpDiagnostic, loadDumps, type LiveDump } from './read-dump';

export interface LivePlanOptions {
  /** the directory the definition paths are relative to */
  readonly cwd: string;
  /** definition files or directories, relative to cwd */
  readonly paths: readonly string[];
  /** dump files or directories of dumps (read-dump.ts) */
  readonly dumps: readonly string[];
  /** dumps read already (drift reads each input apart, to tell which cluster could not be read) */
  readonly read?: readonly LiveDump[];
  /**
   * drift: a cluster of a definition without a dump is left out of the comparison (`absent`),
   * and a ClusterSet whose leader has no dump is not compared (`uncompared`); plan --live refuses both
   */
  readonly partial?: boolean;
  /** plan --live: the Connections section, over the dumps or the inventory files given (live-connections.ts) */
  readonly connections?: { readonly inventory?: readonly string[] };
}

export interface LivePlanResult extends PlanResult {
  /** objects of the head whose kind no dump holds, by kind: not compared */
  readonly notCompared: ReadonlyMap<string, number>;
  /** the head's definitions, once they parsed */
  readonly definitions: readonly ClusterSet[];
  /** with `partial`: by ClusterSet, its clusters without a dump, left out of the comparison */
  readonly absent: ReadonlyMap<string, ReadonlySet<string>>;
  /** with `partial`: the ClusterSets not compared, their leader having no dump */
  readonly uncompared: ReadonlySet<string>;
  /** by ClusterSet, the engine objects synth writes beside the bundles (argocd/, flux/), with their folders */
  readonly engineObjects: ReadonlyMap<string, readonly { readonly folder: string; readonly object: KubeObject }[]>;
  /** what the Connections section could not read from the dumps (live-connections.ts) */
  readonly connectionNotes: readonly string[];
}

type Obj = Record<string, unknown>;

/** The engines' own marks (`EngineApi.isMark`), kubectl's last applied configuration: delivery metadata the first sync adds, which changes nothing in the cluster. */
const isEngineMark = (key: string): boolean => key === 'kubectl.kubernetes.io/last-applied-configuration' || ALL_ENGINES.some((e) => e.api.isMark(key));

/** An object without the engines' marks on its metadata (and without maps they leave empty). */
function withoutEngineMarks(o: KubeObject): KubeObject {
  const metadata: Obj = { ...o.metadata };
  for (const key of ['labels', 'annotations'] as const) {
    const map = o.metadata[key];
    if (!map) continue;
    const kept = Object.fromEntries(Object.entries(map).filter(([k]) => !isEngineMark(k)));
    if (Object.keys(kept).length > 0) metadata[key] = kept;
    // eslint-disable-next-line @typescript-eslint/no-dynamic-delete -- key is labels or annotations, a field, not a map's key
    else delete metadata[key];
  }
  return { ...o, metadata } as unknown as KubeObject;
}

const roleOf = (c: LiveCluster): DumpRole => (c.leaderSet && c.memberSet ? 'dual-role' : c.leaderSet ? 'leader' : 'member');

/** The kinds a cluster's dump answers for: its role's documented kinds and whatever else it holds. */
const comparedKinds = (c: LiveCluster): Set<string> => new Set([...dumpKinds(roleOf(c)).map((d) => d.kind), ...c.dump.objects.map((l) => groupKind(l.object))]);

/** Dumps grouped by the ClusterSet their ClusterSet objects name (dumps without one make the group ''). */
function byClusterSet(dumps: readonly LiveDump[]): Map<string, LiveDump[]> {
  const groups = new Map<string, LiveDump[]>();
  for (const d of dumps) {
    const cs = d.objects.find((l) => l.object.kind === 'ClusterSet')?.object.metadata.name ?? '';
    const g = groups.get(cs) ?? [];
    g.push(d);
    groups.set(cs, g);
  }
  return groups;
}

/** The cluster a dump is, as its ClusterSet objects name it. */
export const dumpClusterID = (d: LiveDump): string | undefined =>
  d.objects.flatMap((l) => (l.object.kind === 'ClusterSet' ? [text(l.object, 'spec', 'clusterID')] : [])).find((id) => id !== undefined);

/**
 * `plan --live`: the change from what runs (the dumps) to the head definitions, in plan's classes.
 * The base side is the live objects, restricted to the fields the head sets (projectOnto) and
 * keyed as plan keys them; the domain lines compare the definition the dumps import to with the
 * head. An object the head does not manage is ignored, one it manages and the dump lacks is added.
 */
export async function runLivePlan(options: LivePlanOptions): Promise<LivePlanResult> {
  const c: Collected = {
    diagnostics: [],
    sources: new Map(),
    notCompared: new Map(),
    absent: new Map(),
    uncompared: new Set(),
    engineObjects: new Map(),
    definitions: [],
    connectionNotes: [],
  };
  const { diagnostics } = c;
  const result = (plan?: Plan): LivePlanResult => ({
    base: 'live',
    head: 'work tree',
    header: { base: `live (${options.dumps.join(', ')})`, head: 'work tree' },
    ...c,
    ...(plan && { plan }),
  });
  const dumps = liveDumps(options, diagnostics);
  // no code frames from dumps (sources): a leader's dump holds tokens, and diagnostics reach CI logs
  const files = findDefinitionFiles(
    options.paths.map((p) => resolve(options.cwd, p)),
    diagnostics,
  );
  const live = liveSink(options, dumps, c);
  const run = files.length > 0 ? await runPipeline([{ files }], live.sink) : undefined;
  diagnostics.push(...(run?.diagnostics ?? []));
  const head = run?.revisions[0];
  for (const s of head?.sources ?? []) c.sources.set(s.file, s.text);
  const built = run?.result?.[0];
  if (hasErrors(diagnostics) || !head || !built) return result();
  for (const o of built.outputs)
    c.engineObjects.set(
      o.name,
      Object.entries(o.engines).flatMap(([folder, objects]) => objects.map((object) => ({ folder, object }))),
    );
  const { base, headSide, extra } = planSides(options, live.sets(), head.parsed, built.outputs, c);
  if (hasErrors(diagnostics)) return result();
  const plan = planChanges(base, headSide);
  // a running cluster the head leaves out was never the engines': no leaving steps for it either
  const checklist = plan.checklist?.filter((i) => i.leaving === undefined);
  const planned = { ...plan, changes: [...extra, ...plan.changes.map(unmanagedLeaving)], ...(checklist && { checklist }) };
  if (!options.connections) return result(planned);
  const connected = liveConnections(planned, live.sets(), options.connections.inventory ?? [], diagnostics);
  c.connectionNotes = connected.notes;
  return result(connected.plan);
}

/** What a live plan gathers on its way, returned whole (LivePlanResult) whether or not it gets to a plan. */
interface Collected {
  readonly diagnostics: Diagnostic[];
  readonly sources: Map<string, string>;
  readonly notCompared: Map<string, number>;
  readonly absent: Map<string, ReadonlySet<string>>;
  readonly uncompared: Set<string>;
  readonly engineObjects: Map<string, { folder: string; object: KubeObject }[]>;
  definitions: ClusterSet[];
  connectionNotes: readonly string[];
}

/** The dumps: those read already, the files named, and the clusters read through a kubeconfig context (`context:NAME`). */
function liveDumps(options: LivePlanOptions, diagnostics: Diagnostic[]): LiveDump[] {
  const contexts = options.dumps.filter((d) => d.startsWith('context:'));
  return [
    ...(options.read ?? []),
    ...loadDumps(
      options.dumps.filter((d) => !contexts.includes(d)).map((d) => resolve(options.cwd, d)),
      diagnostics,
    ),
    ...contexts.flatMap((ctx) => readContext(ctx.slice('context:'.length), diagnostics) ?? []),
  ];
}

/** The pipeline into memory; the dumps' ClusterSets are read once the definitions are valid, before synth. */
function liveSink(options: LivePlanOptions, dumps: readonly LiveDump[], c: Collected): { sink: Sink<InMemory[]>; sets: () => LiveClusterSet[] } {
  const memory = memorySink();
  let sets: LiveClusterSet[] = [];
  const sink: Sink<InMemory[]> = {
    ...memory,
    begin: (revisions, all, found) => {
      if (hasErrors(c.diagnostics)) return false;
      c.definitions = revisions[0]?.parsed.map((p) => p.definition) ?? [];
      sets = [...byClusterSet(dumps)].flatMap(([name, g]) => {
        const definition = options.partial ? c.definitions.find((d) => d.metadata.name === name) : undefined;
        if (!definition) return readLiveClusterSet(g, found) ?? [];
        const present = new Set(g.map(dumpClusterID));
        const missing = new Set(effectiveClusters(definition).flatMap((cl) => (present.has(cl.clusterID) ? [] : [cl.clusterID])));
        // the leader's dump tells the release, the credentials and the policies: without it nothing is compared
        if (missing.has(definition.spec.leader.clusterID)) {
          c.uncompared.add(name);
          return [];
        }
        c.absent.set(name, missing);
        return readLiveClusterSet(g, found, missing) ?? [];
      });
      return memory.begin?.(revisions, all, found);
    },
  };
  return { sink, sets: () => sets };
}

type Side = { outputs: ClusterSetOutput[]; definitions: Map<string, { definition: ClusterSet; file: string }> };

/** Both sides of the plan, per ClusterSet the dumps show: what runs (base) and the head, and the adoption lines. */
function planSides(
  options: LivePlanOptions,
  sets: readonly LiveClusterSet[],
  parsedHead: readonly ParsedClusterSet[],
  outputs: readonly ClusterSetOutput[],
  c: Collected,
): { base: Side; headSide: Side; extra: PlanChange[] } {
  const base: Side = { outputs: [], definitions: new Map() };
  const headSide: Side = { outputs: [], definitions: new Map() };
  const extra: PlanChange[] = [];
  for (const set of sets) {
    const parsed = parsedHead.find((p) => p.definition.metadata.name === set.name);
    if (!parsed) {
      c.diagnostics.push(
        dumpDiagnostic(
          set.leader.dump,
          { index: set.leader.leaderSet!.index, path: ['metadata', 'name'] },
          `no definition in ${options.paths.join(', ')} is ClusterSet ${set.name}`,
          'import one first: `clusterset import`',
        ),
      );
      continue;
    }
    const file = relative(options.cwd, parsed.source.file).split('\\').join('/');
    const target = parsed.definition;
    // what runs, as a definition; what no dump tells (delivery) is the head's, so it shows no change
    const imported = importDefinition(
      set,
      {
        tokenSource: 'manual',
        delivery: { spec: target.spec.delivery, clusters: Object.fromEntries(target.spec.clusters.map((cl) => [cl.clusterID, cl.delivery])) },
      },
      c.diagnostics,
    );
    const live = ClusterSetSchema.safeParse(imported.data);
    if (!live.success) throw new Error(`an imported definition does not parse: ${live.error.message}`);
    // the head's side as synth would emit it (checked by the pipeline: schemas, secrets)
    const output = outputs.find((o) => o.name === set.name)!;
    const missing = c.absent.get(set.name) ?? new Set<string>();
    const { headBundles, baseBundles } = bundleSides(output, set, missing, c.notCompared);
    headSide.outputs.push({ ...output, bundles: headBundles, engines: {} });
    base.outputs.push({ ...output, bundles: baseBundles, engines: {} });
    headSide.definitions.set(set.name, { definition: target, file });
    const running = alignToHead(live.data, target, missing);
    base.definitions.set(set.name, { definition: running, file });
    extra.push(...adoptionChanges(set.name, running, target, runningCredentials(set), missing));
  }
  return { base, headSide, extra };
}

/** Per bundle, the objects compared: the head's as synth emits them, and what runs, restricted to the fields the head sets. */
function bundleSides(output: ClusterSetOutput, set: LiveClusterSet, missing: ReadonlySet<string>, notCompared: Map<string, number>) {
  const liveById = new Map(set.clusters.map((cl) => [cl.clusterID, cl]));
  const headBundles = [];
  const baseBundles = [];
  for (const bundle of output.bundles) {
    // a cluster without a dump: nothing to compare with, on either side
    if (missing.has(bundle.clusterID)) continue;
    const cluster = liveById.get(bundle.clusterID);
    const kinds = cluster ? comparedKinds(cluster) : undefined;
    const compared: KubeObject[] = [];
    const running: KubeObject[] = [];
    for (const o of bundle.objects) {
      const kind = groupKind(o);
      if (kinds && !kinds.has(kind)) {
        notCompared.set(o.kind, (notCompared.get(o.kind) ?? 0) + 1);
        continue;
      }
      const ours = withoutEngineMarks(o);
      compared.push(ours);
      const l = cluster?.find(kind, o.metadata.namespace, o.metadata.name);
      if (l) running.push(projectOnto(withoutEngineMarks(l.object), ours) as KubeObject);
    }
    headBundles.push({ ...bundle, objects: compared });
    if (cluster) baseBundles.push({ ...bundle, objects: running });
  }
  return { headBundles, baseBundles };
}

/**
 * A running cluster the head leaves out: the engines never applied its objects, so the first sync
 * prunes and revokes nothing (plan's words for a git change would say it does); it stays as it
 * runs, outside the definition.
 */
function unmanagedLeaving(change: PlanChange): PlanChange {
  if (!change.leaving) return change;
  return {
    impact: 'safe',
    clusterSet: change.clusterSet,
    text: `${change.leaving.member ? 'member' : 'cluster'} ${change.leaving.clusterID} runs but is not in the definition: the first sync leaves it and its credentials on the leader as they run`,
    details: ['the engines prune only what they applied; add the cluster to the definition to manage it, or remove it from the ClusterSet by hand'],
  };
}

/**
 * The running definition in the head's terms where the difference is not a change: clusters
 * without a dump (`missing`) as the head has them, Gateways in
 * the head's order (a dump lists Nodes by name), and a dedicated leader's network settings its
 * objects do not show (only a member's agent and controller read them) taken from the head.
 */
function alignToHead(live: ClusterSet, head: ClusterSet, missing: ReadonlySet<string>): ClusterSet {
  const headClusters = new Map(effectiveClusters(head).map((c) => [c.clusterID, c]));
  const key = (g: { node: string; ip?: string | undefined }) => `${g.node} ${g.ip ?? ''}`;
  const clusters = live.spec.clusters.map((c, i) => {
    const h = headClusters.get(c.clusterID);
    if (!h) return c;
    const same = c.gateways.map(key).sort().join() === h.cluster.gateways.map(key).sort().join();
    const isMember = effectiveClusters(live)[i]!.isMember;
    const shown = new Set(['stretchedNetworkPolicy', ...(c.install === 'full' ? ['trafficEncapMode', 'tunnelType', 'tunnelPort'] : [])]);
    const network = isMember ? c.network : { ...Object.fromEntries(Object.entries(h.network).filter(([k]) => !shown.has(k))), ...c.network };
    return { ...c, gateways: same ? h.cluster.gateways : c.gateways, network };
  });
  // a cluster without a dump (drift's partial comparison) runs as the head says: no line for it
  const unread = head.spec.clusters.filter((c) => missing.has(c.clusterID));
  return { ...live, spec: { ...live.spec, clusters: [...clusters, ...unread] } };
}
