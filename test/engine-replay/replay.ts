import type { ApiServer } from './api-server';
import { applicationHealth, applicationSetsIn, applicationsIn, applicationSynced, ArgoSync, type ArgoApplication } from './argocd';
import { argoHealthSettings, NO_SETTINGS, type ArgoHealthSettings, type HealthStatus } from './argocd-health';
import type { Fleet } from './controllers';
import { FluxRun, kustomizationsIn } from './flux';
import type { Obj } from './kube';
import type { Revision } from './revision';

/**
 * The engine replay: a revision of the repository, a fleet of clusters, and one engine applying
 * the revision's engine folder until nothing moves any more. What the engine did is the log;
 * what it reached is the fleet and each unit's status. The next issues replay planned changes on
 * the same model: give `replay` the fleet a first replay left and the next revision.
 */
export interface ReplayOptions {
  readonly engine: 'argocd' | 'flux';
  readonly revision: Revision;
  /** the engine folder, e.g. `dist/<clusterset>/argocd` or `dist/<clusterset>/flux` (its subfolders for one Flux per cluster) */
  readonly folder: string;
  readonly fleet: Fleet;
  /** Argo CD: the ApplicationSets of `folder` (default), or the plain Applications of `folder/applications` */
  readonly argocdMode?: 'applicationset' | 'applications';
  /** the operator follows the ClusterSet README (copies `token: manual` member tokens) */
  readonly operator?: boolean;
  /**
   * Things that happen outside the engine (an application creates its Namespace), in order: each at
   * a given step, or `quiet` once nothing moves any more; `now` gives the statuses at that moment.
   */
  readonly events?: readonly { readonly at: number | 'quiet'; readonly run: (fleet: Fleet, now: () => ReplayResult) => string }[];
  /** steps a Flux health check waits before its timeout (default 3; the controllers settle within each step) */
  readonly fluxTimeoutSteps?: number;
  readonly maxSteps?: number;
  /** the previous replay's engine state (Flux inventories, Argo CD tracking lives in the cluster) */
  readonly previous?: ReplayResult;
}

export interface ArgoAppStatus {
  /** the cluster its destination reaches, if any */
  readonly cluster: string | undefined;
  readonly operation: 'None' | 'Running' | 'Succeeded' | 'Failed';
  readonly message: string;
  /** the objects whose sync tasks failed in the last operation */
  readonly failed: readonly string[];
  readonly retries: number;
  readonly health: HealthStatus;
  readonly synced: boolean;
}

export interface FluxStatus {
  /** the cluster it applies to, if its kubeConfig reaches one */
  readonly cluster: string | undefined;
  readonly state: string;
  readonly message: string;
}

export interface ReplayResult {
  readonly log: readonly string[];
  readonly steps: number;
  readonly argocd: Readonly<Record<string, ArgoAppStatus>>;
  readonly flux: Readonly<Record<string, FluxStatus>>;
  /** the objects each unit holds in this revision, by unit name, with the cluster the engine routes them to (none: it reaches none) */
  readonly units: Readonly<Record<string, { cluster: string | undefined; objects: readonly Obj[] }>>;
  readonly fleet: Fleet;
  /** Flux runs, for a replay of the next revision */
  readonly fluxRuns: ReadonlyMap<string, FluxRun>;
  /** the health scripts in Argo CD's argocd-cm, for a replay of the next revision */
  readonly argocdSettings: ArgoHealthSettings;
}

const IN_CLUSTER = 'https://kubernetes.default.svc';

/**
 * The cluster an Application's destination reaches (argo-cd util/argo/argo.go
 * GetDestinationServer, GetDestinationCluster; util/db/cluster.go GetCluster,
 * GetClusterServersByName): a name is looked up among the registered clusters (`in-cluster` is
 * Argo CD's own unless registered otherwise), a server URL must be registered, and the cluster is
 * whatever answers on that URL. Or the error Argo CD shows (InvalidSpecError).
 */
export function destinationCluster(fleet: Fleet, d: ArgoApplication['destination']): ApiServer | string {
  if (d.name && d.server) return `application destination can't have both name and server defined: ${d.name} ${d.server}`;
  let server = d.server?.replace(/\/+$/, '');
  if (!server && d.name) {
    const servers = fleet.operator.argocdClusters.filter((c) => c.name === d.name).map((c) => c.server);
    if (servers.length === 0 && d.name === 'in-cluster') servers.push(IN_CLUSTER);
    if (servers.length === 0) return `error getting cluster by name "${d.name}": there are no clusters with this name: ${d.name}`;
    if (servers.length > 1) return `there are ${servers.length} clusters with the same name: [${servers.join(' ')}]`;
    server = servers[0]!;
  }
  if (!server) return 'Destination server missing from app spec';
  if (server === IN_CLUSTER && !fleet.operator.argocdClusters.some((c) => c.server === IN_CLUSTER)) {
    const home = fleet.operator.argocdHome;
    return home ? fleet.cluster(home) : `${IN_CLUSTER} is Argo CD's own cluster, which is none of the fleet's`;
  }
  if (!fleet.operator.argocdClusters.some((c) => c.server.replace(/\/+$/, '') === server))
    return `error getting cluster by server "${server}": cluster "${server}" not found`;
  return fleet.reach(server) ?? `Get "${server}/version": dial tcp: lookup ${server.replace(/^https?:\/\//, '')}: no such host`;
}
/** steps without any change before the replay counts as settled */
const QUIET = 2;

export function replay(options: ReplayOptions): ReplayResult {
  return options.engine === 'argocd' ? replayArgoCd(options) : replayFlux(options);
}

/** Fleet and engine fingerprints stop the loop once nothing changes (retry counters aside). */
function runLoop(options: ReplayOptions, log: string[], step: (n: number) => void, engineState: () => string, now: () => ReplayResult): number {
  const max = options.maxSteps ?? 200;
  options.fleet.readOperatorNotes(options.revision.files);
  const pending = [...(options.events ?? [])];
  let quiet = 0;
  let previous = '';
  for (let n = 0; n < max; n++) {
    while (pending.length > 0 && (pending[0]!.at === n || (pending[0]!.at === 'quiet' && quiet >= QUIET))) {
      log.push(`[event] ${pending.shift()!.run(options.fleet, now)}`);
      quiet = 0;
    }
    if (options.operator) for (const m of options.fleet.copyManualTokens()) log.push(`[operator] ${m}`);
    step(n);
    const before = options.fleet.events.length;
    options.fleet.settle();
    for (const e of options.fleet.events.slice(before)) log.push(`[${e.cluster}] ${e.message}`);
    const state = options.fleet.fingerprint() + engineState();
    quiet = state === previous ? quiet + 1 : 0;
    previous = state;
    if (quiet >= QUIET && pending.length === 0) return n + 1;
  }
  return max;
}

function replayArgoCd(options: ReplayOptions): ReplayResult {
  const log: string[] = [];
  const { revision, fleet } = options;
  // the operator applies the health rules' argocd-cm (docs/delivery.md); without it Argo CD keeps what it had
  const health = revision.objectsIn(`${options.folder}/health`);
  const settings = health.length > 0 ? argoHealthSettings(health) : (options.previous?.argocdSettings ?? NO_SETTINGS);
  const groups =
    options.argocdMode === 'applications'
      ? byWave(applicationsIn(revision, `${options.folder}/applications`))
      : applicationSetsIn(revision, options.folder).map((s) => ({
          name: s.name,
          rolling: s.steps.length > 0,
          steps: stepsOf(s.applications, s.steps, log, s.name),
        }));
  const apps = groups.flatMap((g) => g.steps.flat());
  const targets = new Map<string, Obj[]>(apps.map((a) => [a.name, revision.build(a.path)]));
  const destinations = new Map(apps.map((a) => [a.name, destinationCluster(fleet, a.destination)]));
  for (const [name, d] of destinations) if (typeof d === 'string') log.push(`[argocd] ${name}: InvalidSpecError: ${d}`);
  const clusterOf = (a: ArgoApplication): ApiServer | undefined => {
    const d = destinations.get(a.name);
    return typeof d === 'string' ? undefined : d;
  };
  const units = Object.fromEntries(apps.map((a) => [a.name, { cluster: clusterOf(a)?.clusterID, objects: targets.get(a.name)! }]));
  const ops = new Map<string, ArgoSync>();
  const retries = new Map<string, number>();
  // RollingSync's isApplicationHealthy needs the last operation Succeeded too; an app-of-apps' wave
  // waits for the child Application's health only (the Application health check argo-cd's docs
  // give reads `status.health`, which hooks and operations do not enter)
  const done = (a: ArgoApplication): boolean => {
    const c = clusterOf(a);
    const t = targets.get(a.name)!;
    const op = ops.get(a.name)?.phase;
    return (
      c !== undefined &&
      (options.argocdMode === 'applications' ? op !== undefined : op === 'Succeeded') &&
      applicationSynced(c, t) &&
      applicationHealth(c, t, settings).status === 'Healthy'
    );
  };
  const start = (a: ArgoApplication) => {
    const c = clusterOf(a);
    if (c) ops.set(a.name, new ArgoSync(a, c, targets.get(a.name)!, (m) => log.push(`[argocd] ${m}`), settings));
  };
  const steps = runLoop(
    options,
    log,
    () => {
      for (const g of groups) {
        // RollingSync (applicationset/controllers/applicationset_controller.go): a step's Applications sync once
        // every Application of the steps before it is Healthy, not OutOfSync, and its last operation Succeeded
        // (isApplicationHealthy); AllAtOnce: every step is one
        for (let i = 0; i < g.steps.length; i++) {
          if (g.steps.slice(0, i).some((s) => !s.every(done))) break;
          for (const a of g.steps[i]!) {
            const op = ops.get(a.name);
            const c = clusterOf(a);
            if (!op) start(a);
            else if (op.phase === 'Succeeded' && !g.rolling && a.automated && a.selfHeal && c && !applicationSynced(c, targets.get(a.name)!)) {
              // automated self-heal (controller/appcontroller.go autoSync): the same revision synced again once the live state drifted
              log.push(`[argocd] ${a.name}: self-heal`);
              start(a);
            } else if (op.phase === 'Failed') {
              const n = retries.get(a.name) ?? 0;
              // syncPolicy.retry: limit attempts after a failed sync, none left: the revision waits for a person
              if (a.retryLimit < 0 || n < a.retryLimit) {
                retries.set(a.name, n + 1);
                log.push(`[argocd] ${a.name}: retry ${n + 1}${a.retryLimit < 0 ? '' : `/${a.retryLimit}`}`);
                start(a);
              }
            }
            // an Application whose destination reaches no cluster is never synced (InvalidSpecError)
            ops.get(a.name)?.step();
          }
        }
      }
    },
    // a sync that walks its waves moves even where the fleet does not; retries with a limit are time
    // passing (their backoff); endless ones are one state
    () => JSON.stringify([...ops.entries()].map(([k, o]) => [k, o.phase, o.message, o.progress, o.app.retryLimit >= 0 ? (retries.get(k) ?? 0) : ''])),
    () => result(0),
  );
  function result(steps: number): ReplayResult {
    const argocd: Record<string, ArgoAppStatus> = {};
    for (const a of apps) {
      const c = clusterOf(a);
      const t = targets.get(a.name)!;
      const op = ops.get(a.name);
      const invalid = destinations.get(a.name);
      argocd[a.name] = {
        cluster: c?.clusterID,
        operation: op?.phase ?? 'None',
        message: typeof invalid === 'string' ? `InvalidSpecError: ${invalid}` : (op?.message ?? 'never synced'),
        failed: op?.failed ?? [],
        retries: retries.get(a.name) ?? 0,
        health: c ? applicationHealth(c, t, settings) : { status: 'Unknown' },
        synced: c !== undefined && applicationSynced(c, t),
      };
    }
    return { log: [...log], steps, argocd, flux: {}, units, fleet, fluxRuns: new Map(), argocdSettings: settings };
  }
  return result(steps);
}

/** An ApplicationSet's steps: Applications no step selects are never synced by RollingSync (Progressive Syncs docs). */
function stepsOf(apps: ArgoApplication[], steps: readonly { key: string; values: readonly string[] }[][], log: string[], name: string): ArgoApplication[][] {
  if (steps.length === 0) return [apps];
  const selected = (a: ArgoApplication, s: readonly { key: string; values: readonly string[] }[]) => s.every((m) => m.values.includes(a.labels[m.key] ?? ''));
  const out = steps.map((s) => apps.filter((a) => selected(a, s)));
  for (const a of apps) if (!out.some((s) => s.includes(a))) log.push(`[argocd] ${name}: ${a.name} is in no RollingSync step and is never synced`);
  return out;
}

/** Plain Applications from an app-of-apps: by their own sync wave, each wave after the previous is Healthy. */
function byWave(apps: ArgoApplication[]): { name: string; rolling: boolean; steps: ArgoApplication[][] }[] {
  const waves = [...new Set(apps.map((a) => a.wave))].sort((a, b) => a - b);
  return [{ name: 'app-of-apps', rolling: false, steps: waves.map((w) => apps.filter((a) => a.wave === w)) }];
}

function replayFlux(options: ReplayOptions): ReplayResult {
  const log: string[] = [];
  const { revision, fleet } = options;
  const folders = [
    options.folder,
    ...new Set(
      [...revision.files.keys()]
        .filter((p) => p.startsWith(`${options.folder}/`) && p.slice(options.folder.length + 1).includes('/'))
        .map((p) => p.slice(0, p.lastIndexOf('/'))),
    ),
  ];
  const ks = folders.flatMap((f) => {
    const home = fleet.operator.fluxHomes.get(f);
    const found = kustomizationsIn(revision, f);
    if (found.length > 0 && home === undefined) throw new Error(`the scenario says no cluster's Flux applies ${f} (Fleet.operator.fluxHomes)`);
    return found.map((k) => ({ k, home: home! }));
  });
  const runs = new Map<string, FluxRun>();
  for (const { k, home } of ks) {
    const run = new FluxRun(k, fleet.cluster(home), fleet, revision, (m) => log.push(`[flux] ${m}`));
    const before = options.previous?.fluxRuns.get(k.name);
    if (before) [run.inventory, run.applied] = [before.inventory, before.applied];
    runs.set(k.name, run);
  }
  const targetOf = (run: FluxRun): string | undefined => {
    const t = run.target();
    return typeof t === 'string' ? undefined : t.clusterID;
  };
  const units = Object.fromEntries([...runs.values()].map((r) => [r.k.name, { cluster: targetOf(r), objects: revision.build(r.k.path) }]));
  // Kustomizations the previous revision had and this one has not: orphaned or deleted by their parent
  for (const [name, before] of options.previous?.fluxRuns ?? []) {
    if (runs.has(name)) continue;
    before.removedFromParent();
    log.push(`[flux] ${name}: ${before.message}`);
  }
  const ready = (name: string) => runs.get(name)?.state === 'Ready';
  const timeout = options.fluxTimeoutSteps ?? 3;
  const steps = runLoop(
    options,
    log,
    () => {
      for (const run of runs.values()) {
        if (run.stalled) continue;
        if (run.state === 'Progressing') {
          run.checkHealth();
          if (run.state === 'Progressing' && run.waited > timeout) run.timeout();
        } else if (run.state !== 'Ready') run.reconcile(ready);
      }
    },
    // a health wait that times out and is retried is one state: only the fleet tells progress apart
    () => JSON.stringify([...runs.entries()].map(([k, r]) => [k, r.state === 'Ready' || r.state === 'Pending' ? `${r.state}:${r.message}` : 'NotReady'])),
    () => result(0),
  );
  function result(steps: number): ReplayResult {
    const flux: Record<string, FluxStatus> = {};
    for (const [name, r] of runs) flux[name] = { cluster: targetOf(r), state: r.state, message: r.message };
    return { log: [...log], steps, argocd: {}, flux, units, fleet, fluxRuns: runs, argocdSettings: options.previous?.argocdSettings ?? NO_SETTINGS };
  }
  return result(steps);
}
