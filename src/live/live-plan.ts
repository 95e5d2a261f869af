import { isPlainObject } from '../antrea/workloads/deep-merge';
import { relative, resolve } from 'node:path';
import { memorySink, type InMemory } from '../pipeline/memory-sink';
import { runPipeline, type Sink } from '../pipeline/pipeline';
import { hasErrors, type Diagnostic } from '../diagnostics/diagnostic';
import { findDefinitionFiles } from '../load/load-clustersets';
import { ClusterSetSchema, type ClusterSet } from '../model/clusterset';
import { effectiveClusters } from '../model/effective';
import { planChanges } from '../plan/plan-changes';
import type { Plan, PlanChange } from '../plan/plan';
import type { PlanResult } from '../plan/run-plan';
import { memberTokenName, replicatedPolicyName } from '../model/default-names';
import type { KubeObject } from '../kube/kube-object';
import { ALL_ENGINES } from '../delivery/engines';
import type { ClusterSetOutput } from '../synth/synth-clusterset';
import { dumpKinds, type DumpRole } from './dump-kinds';
import { importDefinition } from './import-definition';
import { groupKind, readLiveClusterSet, text, type LiveCluster, type LiveClusterSet } from './live-cluster';
import { readContext } from './read-context';
import { runningCredentials, type RunningCredentials } from './running-credentials';
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
    else delete metadata[key];
  }
  return { ...o, metadata } as unknown as KubeObject;
}

/**
 * The live value restricted to the fields `head` sets, as server-side apply compares them: keys
 * the head does not name are someone else's (the server's defaults, a controller's status); a
 * list whose items carry a distinct merge key (mergeKey) is matched by it (an associative list:
 * other items are someone else's), any other list is compared whole.
 */
export function projectOnto(live: unknown, head: unknown): unknown {
  if (isPlainObject(head) && isPlainObject(live)) {
    const out: Obj = {};
    for (const k of Object.keys(head)) if (k in live) out[k] = projectOnto(live[k], head[k]);
    return out;
  }
  if (Array.isArray(head) && Array.isArray(live)) {
    const key = mergeKey(head);
    if (key !== undefined) {
      const byKey = new Map(live.filter(isPlainObject).map((l) => [l[key], l]));
      return head.flatMap((h) => {
        const l = byKey.get((h as Obj)[key]);
        return l === undefined ? [] : [projectOnto(l, h)];
      });
    }
    return (live as unknown[]).map((l, i) => (i < head.length ? projectOnto(l, (head as unknown[])[i]) : l));
  }
  return live;
}

/** Keys by which Kubernetes merges list items (containers, env, volumes: name; volumeMounts: mountPath; ports). */
const MERGE_KEYS = ['name', 'mountPath', 'containerPort'];

/** The key that tells a list's items apart, when every item has a distinct one; undefined for a list compared whole. */
function mergeKey(items: readonly unknown[]): string | undefined {
  if (items.length === 0 || !items.every(isPlainObject)) return undefined;
  return MERGE_KEYS.find((k) => {
    const values = items.map((i) => i[k]);
    return values.every((v) => typeof v === 'string' || typeof v === 'number') && new Set(values).size === values.length;
  });
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
  const diagnostics: Diagnostic[] = [];
  const sources = new Map<string, string>();
  const notCompared = new Map<string, number>();
  const absent = new Map<string, ReadonlySet<string>>();
  const uncompared = new Set<string>();
  const engineObjects = new Map<string, { folder: string; object: KubeObject }[]>();
  let definitions: ClusterSet[] = [];
  const result = (plan?: Plan): LivePlanResult => ({
    base: 'live',
    head: 'work tree',
    header: { base: `live (${options.dumps.join(', ')})`, head: 'work tree' },
    diagnostics,
    sources,
    notCompared,
    definitions,
    absent,
    uncompared,
    engineObjects,
    ...(plan && { plan }),
  });

  const contexts = options.dumps.filter((d) => d.startsWith('context:'));
  const dumps = [
    ...(options.read ?? []),
    ...loadDumps(
      options.dumps.filter((d) => !contexts.includes(d)).map((d) => resolve(options.cwd, d)),
      diagnostics,
    ),
    ...contexts.flatMap((c) => readContext(c.slice('context:'.length), diagnostics) ?? []),
  ];
  // no code frames from dumps (sources): a leader's dump holds tokens, and diagnostics reach CI logs
  const files = findDefinitionFiles(
    options.paths.map((p) => resolve(options.cwd, p)),
    diagnostics,
  );
  // the pipeline into memory; the dumps' ClusterSets are read once the definitions are valid, before synth
  const memory = memorySink();
  let sets: LiveClusterSet[] = [];
  const live: Sink<InMemory[]> = {
    ...memory,
    begin: (revisions, all, found) => {
      if (hasErrors(diagnostics)) return false;
      definitions = revisions[0]?.parsed.map((p) => p.definition) ?? [];
      sets = [...byClusterSet(dumps)].flatMap(([name, g]) => {
        const definition = options.partial ? definitions.find((d) => d.metadata.name === name) : undefined;
        if (!definition) return readLiveClusterSet(g, found) ?? [];
        const present = new Set(g.map(dumpClusterID));
        const missing = new Set(effectiveClusters(definition).flatMap((c) => (present.has(c.clusterID) ? [] : [c.clusterID])));
        // the leader's dump tells the release, the credentials and the policies: without it nothing is compared
        if (missing.has(definition.spec.leader.clusterID)) {
          uncompared.add(name);
          return [];
        }
        absent.set(name, missing);
        return readLiveClusterSet(g, found, missing) ?? [];
      });
      return memory.begin?.(revisions, all, found);
    },
  };
  const run = files.length > 0 ? await runPipeline([{ files }], live) : undefined;
  diagnostics.push(...(run?.diagnostics ?? []));
  const head = run?.revisions[0];
  for (const s of head?.sources ?? []) sources.set(s.file, s.text);
  const built = run?.result?.[0];
  if (hasErrors(diagnostics) || !head || !built) return result();
  for (const o of built.outputs)
    engineObjects.set(
      o.name,
      Object.entries(o.engines).flatMap(([folder, objects]) => objects.map((object) => ({ folder, object }))),
    );

  const base: { outputs: ClusterSetOutput[]; definitions: Map<string, { definition: ClusterSet; file: string }> } = { outputs: [], definitions: new Map() };
  const headSide: typeof base = { outputs: [], definitions: new Map() };
  const extra: PlanChange[] = [];
  for (const set of sets) {
    const parsed = head.parsed.find((p) => p.definition.metadata.name === set.name);
    if (!parsed) {
      diagnostics.push(
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
        delivery: { spec: target.spec.delivery, clusters: Object.fromEntries(target.spec.clusters.map((c) => [c.clusterID, c.delivery])) },
      },
      diagnostics,
    );
    const live = ClusterSetSchema.safeParse(imported.data);
    if (!live.success) throw new Error(`an imported definition does not parse: ${live.error.message}`);

    // the head's side as synth would emit it (checked by the pipeline: schemas, secrets)
    const output = built.outputs.find((o) => o.name === set.name)!;
    const liveById = new Map(set.clusters.map((c) => [c.clusterID, c]));
    const missing = absent.get(set.name) ?? new Set<string>();
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
    headSide.outputs.push({ ...output, bundles: headBundles, engines: {} });
    base.outputs.push({ ...output, bundles: baseBundles, engines: {} });
    headSide.definitions.set(set.name, { definition: target, file });
    const running = alignToHead(live.data, target, missing);
    base.definitions.set(set.name, { definition: running, file });
    extra.push(...adoptionChanges(set.name, running, target, runningCredentials(set), missing));
  }
  if (hasErrors(diagnostics)) return result();
  const plan = planChanges(base, headSide);
  // a running cluster the head leaves out was never the engines': no leaving steps for it either
  const checklist = plan.checklist?.filter((i) => i.leaving === undefined);
  return result({ ...plan, changes: [...extra, ...plan.changes.map(unmanagedLeaving)], ...(checklist && { checklist }) });
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
 * What only adoption can get wrong: names the head gives differently from what runs. The old
 * objects are not the engine's to prune, so they stay beside the new ones. What runs on the
 * leader is what its dump shows (`running`), never the import's names: a line calls credentials
 * running only when they are. A member without a dump (`missing`) has no line.
 */
function adoptionChanges(
  cs: string,
  live: ClusterSet,
  head: ClusterSet,
  running: ReadonlyMap<string, RunningCredentials>,
  missing: ReadonlySet<string>,
): PlanChange[] {
  const out: PlanChange[] = [];
  const liveMembers = new Map(effectiveClusters(live).map((c) => [c.clusterID, c]));
  const names = (n: { serviceAccount: string; secret: string; roleBinding?: string | undefined }) =>
    `ServiceAccount ${n.serviceAccount}, Secret ${n.secret}${n.roleBinding === undefined ? '' : `, RoleBinding ${n.roleBinding}`}`;
  for (const c of effectiveClusters(head)) {
    const l = liveMembers.get(c.clusterID);
    // a member without a dump: what its ClusterSet reads is unknown, so nothing is said of its credentials
    if (!l || !l.isMember || !c.isMember || missing.has(c.clusterID)) continue;
    const d = memberTokenName(c.clusterID);
    const n = c.leaderCredentials;
    const wanted = { serviceAccount: n?.serviceAccount ?? d, secret: n?.secret ?? d, roleBinding: n?.roleBinding ?? d };
    const r = running.get(c.clusterID);
    const copy = `the new Secret holds a new token, which the member uses only once it is copied into its Secret ${c.tokenSecretName} (the ClusterSet's README gives the commands)`;
    if (!r)
      out.push({
        impact: 'safe',
        clusterSet: cs,
        text: `member ${c.clusterID} gets new credentials on the leader (${names(wanted)}): the leader's dump shows none for it (its ClusterSet reads Secret ${l.tokenSecretName})`,
        details: [copy, 'if the leader holds the member’s credentials under other names, set clusters[].leaderCredentials to them'],
      });
    else if (r.serviceAccount !== wanted.serviceAccount || r.secret !== wanted.secret)
      out.push(
        r.shared
          ? {
              impact: 'safe',
              clusterSet: cs,
              text: `member ${c.clusterID} gets its own credentials on the leader (${names(wanted)}); it runs on the shared ServiceAccount ${r.serviceAccount} (Secret ${r.secret}), which stays as it runs`,
              details: [
                copy,
                'v2.7 admits each member only through a ServiceAccount of its own (docs/multicluster/upgrade.md); the shared one is deleted on the way there',
              ],
            }
          : {
              impact: 'safe',
              clusterSet: cs,
              text: `member ${c.clusterID} gets new credentials on the leader (${names(wanted)}) beside the running ones (${names(r)})`,
              details: [
                `${copy}; the running credentials are not the engine’s to prune and keep working`,
                'to keep the running token, set clusters[].leaderCredentials to the running names (clusterset import writes them)',
              ],
            },
      );
    if (l.tokenSecretName !== c.tokenSecretName)
      out.push({
        impact: 'disruptive',
        clusterSet: cs,
        text: `member ${c.clusterID} reads its token from Secret ${c.tokenSecretName} instead of ${l.tokenSecretName}: it disconnects until that Secret holds the token`,
      });
  }
  const exportsRunning = new Map(live.spec.policies.map((p) => [p.name, p.exportName ?? replicatedPolicyName(p.name, live.metadata.name)]));
  for (const p of head.spec.policies) {
    const was = exportsRunning.get(p.name);
    const now = p.exportName ?? replicatedPolicyName(p.name, head.metadata.name);
    if (was !== undefined && was !== now)
      out.push({
        impact: 'disruptive',
        clusterSet: cs,
        text: `policy ${p.name} is exported as ResourceExport ${now} beside the running ${was}`,
        details: [
          'the leader updates a policy’s import only while one export carries its name, so changes stop reaching the members until one export is gone',
          `keep the running name with exportName: ${was} (clusterset import writes it), or delete ${was} after the first sync`,
        ],
      });
  }
  return out;
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
