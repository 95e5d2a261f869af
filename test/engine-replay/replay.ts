import type { EngineKey } from '../../src/delivery/engine';
import type { ApiServer } from './kubernetes/api-server';
import { applicationHealth, applicationSetsIn, applicationsIn, applicationSynced, ArgoSync, deleteApplication, type ArgoApplication } from './engines/argocd';
import { argoHealthSettings, NO_SETTINGS, type ArgoHealthSettings, type HealthStatus } from './engines/argocd-health';
import type { Fleet } from './antrea/controllers';
import { legacyRollingSync, NEWEST_ARGOCD, NEWEST_FLUX, type ArgoCdVersion, type FluxVersion } from './engines/engine-versions';
import { FluxRun, kustomizationsIn } from './engines/flux';
import type { Obj } from './kubernetes/kube';
import type { Revision } from './engines/revision';

/**
 * The engine replay: a revision of the repository, a fleet of clusters, and one engine applying
 * the revision's engine folder until nothing moves any more. What the engine did is the log;
 * what it reached is the fleet and each unit's status. The next issues replay planned changes on
 * the same model: give `replay` the fleet a first replay left and the next revision.
 */
export interface ReplayOptions {
  readonly engine: EngineKey;
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
  /** the previous replay's engine state (Flux inventories, Argo CD operations; Argo CD tracking lives in the cluster) */
  readonly previous?: ReplayResult;
  /** the Argo CD the replay runs as (default the newest supported): its RollingSync step rule and its Application health (engine-versions.ts) */
  readonly argocdVersion?: ArgoCdVersion;
  /** the Flux the replay runs as (default the newest supported): its post-build substitution (engine-versions.ts) */
  readonly fluxVersion?: FluxVersion;
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
  /** whose manifests the current or last operation syncs: this revision's, an earlier one's, or none yet */
  readonly revision: 'latest' | 'earlier' | 'none';
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
  /** Argo CD Applications with the cluster their destination reached, for a replay of the next revision */
  readonly argocdApps?: readonly { readonly app: ArgoApplication; readonly cluster: string | undefined }[];
  /** what Argo CD holds of each Application (its operation, its RollingSync status), for a replay of the next revision */
  readonly argocdStates?: ReadonlyMap<string, ArgoAppState>;
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

/** The replay's model of each registered engine (replayed-engines.ts): a new engine without one fails to compile and test/delivery/engine-parts.test.ts. */
export const REPLAYERS: Readonly<Record<EngineKey, (options: ReplayOptions) => ReplayResult>> = { argocd: replayArgoCd, flux: replayFlux };

export function replay(options: ReplayOptions): ReplayResult {
  return REPLAYERS[options.engine](options);
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

/** Where one Application stands in Argo CD, across revisions: its operation and its RollingSync status. */
export interface ArgoAppState {
  /** the current or last operation, with the revision it syncs */
  op?: ArgoSync;
  /** retries of that operation (its RetryCount) */
  retries: number;
  /** the ApplicationSet's status of it under RollingSync, and the revision that status is for */
  rolling: 'Waiting' | 'Pending' | 'Progressing' | 'Healthy';
  rollingRevision?: string;
  /** a revision an operation has applied every resource of (the live objects match it) */
  applied?: string;
  /** created by its app-of-apps (after the Applications of the waves before it were Healthy) */
  created?: boolean;
}

function replayArgoCd(options: ReplayOptions): ReplayResult {
  const log: string[] = [];
  const version = options.argocdVersion ?? NEWEST_ARGOCD;
  const legacy = legacyRollingSync(version);
  const { revision, fleet } = options;
  // the operator applies the health rules' argocd-cm (docs/delivery.md); without it Argo CD keeps what it had
  const healthFiles = revision.objectsIn(`${options.folder}/health`);
  const health = healthFiles.length > 0 ? argoHealthSettings(healthFiles) : (options.previous?.argocdSettings ?? NO_SETTINGS);
  const groups =
    options.argocdMode === 'applications'
      ? byWave(applicationsIn(revision, `${options.folder}/applications`))
      : applicationSetsIn(revision, options.folder).map((s) => ({
          name: s.name,
          order: s.steps.length > 0 ? ('rolling' as const) : ('none' as const),
          steps: stepsOf(s.applications, s.steps, log, s.name),
        }));
  const apps = groups.flatMap((g) => g.steps.flat());
  const targets = new Map<string, Obj[]>(apps.map((a) => [a.name, revision.build(a.path)]));
  // an Application's revision: what its manifests are in this revision of git
  const revisionOf = new Map(apps.map((a) => [a.name, JSON.stringify(targets.get(a.name))]));
  const destinations = new Map(apps.map((a) => [a.name, destinationCluster(fleet, a.destination)]));
  for (const [name, d] of destinations) if (typeof d === 'string') log.push(`[argocd] ${name}: InvalidSpecError: ${d}`);
  /** the cluster an Application's destination reaches; none: it is never synced (InvalidSpecError) */
  const clusterOf = (a: ArgoApplication): ApiServer | undefined => {
    const d = destinations.get(a.name);
    return typeof d === 'string' ? undefined : d;
  };
  const units = Object.fromEntries(apps.map((a) => [a.name, { cluster: clusterOf(a)?.clusterID, objects: targets.get(a.name)! }]));
  // Applications the previous revision had and this one has not: deleted, with or without what they applied
  for (const { app, cluster } of options.previous?.argocdApps ?? [])
    if (cluster !== undefined && !apps.some((a) => a.name === app.name)) deleteApplication(app, fleet.cluster(cluster), (m) => log.push(`[argocd] ${m}`));
  // what Argo CD knows of each Application from before: an operation still running goes on with its revision
  const states = new Map<string, ArgoAppState>(apps.map((a) => [a.name, options.previous?.argocdStates?.get(a.name) ?? { retries: 0, rolling: 'Waiting' }]));
  const st = (a: ArgoApplication) => states.get(a.name)!;
  const synced = (a: ArgoApplication): boolean => {
    const c = clusterOf(a);
    return c !== undefined && st(a).applied === revisionOf.get(a.name) && applicationSynced(c, targets.get(a.name)!);
  };
  const healthy = (a: ArgoApplication): boolean => {
    const c = clusterOf(a);
    return c !== undefined && applicationHealth(c, targets.get(a.name)!, health, version).status === 'Healthy';
  };
  const inProgress = (a: ArgoApplication): boolean => st(a).op?.phase === 'Running' || retrying(a);
  /** a failed operation with retries left is still in progress (appcontroller.go processRequestedAppOperation: Running with FinishedAt) */
  const retrying = (a: ArgoApplication): boolean => {
    const s = st(a);
    return s.op?.phase === 'Failed' && (a.retryLimit < 0 || s.retries < a.retryLimit);
  };
  const start = (a: ArgoApplication, rev: string, objects: readonly Obj[]) => {
    const c = clusterOf(a);
    if (c) st(a).op = new ArgoSync(a, c, objects, (m) => log.push(`[argocd] ${m}`), health, rev);
  };
  /** a new operation for the latest revision, run at once as the controller does */
  const startLatest = (a: ArgoApplication) => {
    const s = st(a);
    // an Application whose destination reaches no cluster is never synced (InvalidSpecError)
    if (!clusterOf(a)) return;
    s.retries = 0;
    start(a, revisionOf.get(a.name)!, targets.get(a.name)!);
    s.op!.step();
    if (s.op!.applied) s.applied = s.op!.revision;
  };
  /**
   * The application controller's part (controller/appcontroller.go processRequestedAppOperation):
   * an operation in progress goes on; a failed one is retried after its backoff while retries are
   * left, with the revision it started from, or with the latest one under `retry.refresh`.
   */
  const operate = (a: ArgoApplication) => {
    const s = st(a);
    if (retrying(a)) {
      s.retries++;
      const refresh = a.retryRefresh === true;
      log.push(`[argocd] ${a.name}: retry ${s.retries}${a.retryLimit < 0 ? '' : `/${a.retryLimit}`}${refresh ? ' with the latest revision' : ''}`);
      if (refresh) start(a, revisionOf.get(a.name)!, targets.get(a.name)!);
      else start(a, s.op!.revision, s.op!.targets);
    }
    if (s.op?.phase === 'Running') s.op.step();
    if (s.op?.applied) s.applied = s.op.revision;
  };
  /**
   * Automated sync (appcontroller.go autoSync): nothing while an operation is in progress; an
   * Application OutOfSync with git gets an operation for the latest revision, unless that revision
   * is the one whose sync failed and spent its retries (alreadyAttemptedSync), which waits for a
   * person, or the one it already synced and the live state drifted since: synced again only with
   * `selfHeal` (after its timeout).
   */
  const autoSync = (a: ArgoApplication) => {
    const s = st(a);
    if (inProgress(a)) return;
    const latest = revisionOf.get(a.name)!;
    if (s.op && s.op.revision === latest && (s.op.phase === 'Failed' || synced(a))) return;
    if (s.op?.revision === latest && s.op.phase === 'Succeeded') {
      if (!a.selfHeal) return;
      log.push(`[argocd] ${a.name}: self-heal`);
    }
    startLatest(a);
  };
  /**
   * RollingSync's status of one Application (applicationset/controllers: v3.3+
   * progressivesync UpdateApplicationSetApplicationStatus; up to v3.2
   * updateApplicationSetApplicationStatus with isApplicationHealthy). From v3.3 a new revision makes
   * it Waiting, and it is Healthy once the Application is Healthy and Synced, whatever its operation
   * did; OutOfSync alone changes nothing. Up to v3.2, OutOfSync (drift) makes it Waiting too, and
   * Healthy needs the last operation Succeeded.
   */
  const legacyHealthy = (a: ArgoApplication) => healthy(a) && synced(a) && (st(a).op === undefined || st(a).op!.phase === 'Succeeded');
  const rollingStatus = (a: ArgoApplication) => {
    const s = st(a);
    const latest = revisionOf.get(a.name)!;
    if (s.rollingRevision !== latest || (legacy && !synced(a) && s.rolling !== 'Pending')) {
      s.rollingRevision = latest;
      s.rolling = 'Waiting';
    }
    const done = legacy ? legacyHealthy(a) : healthy(a) && synced(a);
    if (s.rolling === 'Waiting' && synced(a)) s.rolling = done ? 'Healthy' : legacy ? s.rolling : 'Progressing';
    if (s.rolling === 'Progressing' && done) s.rolling = 'Healthy';
  };
  const steps = runLoop(
    options,
    log,
    () => {
      for (const g of groups) {
        if (g.order === 'none') {
          for (const a of g.steps.flat()) {
            operate(a);
            autoSync(a);
          }
          continue;
        }
        // an app-of-apps creates each wave's Applications once those of the waves before are
        // Healthy (its parent's sync waves, with the Application health check docs/delivery.md
        // gives); from then on each syncs on its own (automated sync)
        if (g.order === 'waves') {
          for (let i = 0; i < g.steps.length; i++)
            for (const a of g.steps[i]!) {
              if (!st(a).created && g.steps.slice(0, i).every((step) => step.every((b) => st(b).created && healthy(b)))) st(a).created = true;
              if (!st(a).created) continue;
              operate(a);
              autoSync(a);
            }
          continue;
        }
        // RollingSync: a step's Applications move from Waiting to Pending once every Application of
        // the steps before it is Healthy (getAppsToSync; up to v3.2 buildAppSyncMap and
        // appSyncEnabledForNextStep), and the ApplicationSet controller requests a sync of a Pending
        // one (SyncDesiredApplications); the request takes effect once no operation is in progress
        for (const a of g.steps.flat()) rollingStatus(a);
        for (let i = 0; i < g.steps.length; i++) {
          const allowed = g.steps.slice(0, i).every((step) => step.every((a) => st(a).rolling === 'Healthy'));
          for (const a of g.steps[i]!) {
            operate(a);
            const s = st(a);
            if (allowed && s.rolling === 'Waiting') s.rolling = 'Pending';
            if (s.rolling === 'Pending' && !inProgress(a)) {
              startLatest(a);
              s.rolling = 'Progressing';
            }
          }
        }
      }
    },
    // a sync that walks its waves moves even where the fleet does not; retries with a limit are time
    // passing (their backoff); endless ones are one state
    () =>
      JSON.stringify(
        [...states.entries()].map(([k, s]) => [k, s.op?.phase, s.op?.message, s.op?.progress, s.op && s.op.app.retryLimit >= 0 ? s.retries : '', s.rolling]),
      ),
    () => result(0),
  );
  function result(steps: number): ReplayResult {
    const argocd: Record<string, ArgoAppStatus> = {};
    for (const a of apps) {
      const c = clusterOf(a);
      const t = targets.get(a.name)!;
      const s = st(a);
      const invalid = destinations.get(a.name);
      argocd[a.name] = {
        cluster: c?.clusterID,
        operation: retrying(a) ? 'Running' : (s.op?.phase ?? 'None'),
        message: typeof invalid === 'string' ? `InvalidSpecError: ${invalid}` : (s.op?.message ?? 'never synced'),
        failed: s.op?.failed ?? [],
        retries: s.retries,
        health: c ? applicationHealth(c, t, health, version) : { status: 'Unknown' },
        synced: synced(a),
        revision: s.op?.revision === revisionOf.get(a.name) ? 'latest' : s.op ? 'earlier' : 'none',
      };
    }
    return {
      log: [...log],
      steps,
      argocd,
      flux: {},
      units,
      fleet,
      fluxRuns: new Map(),
      argocdSettings: health,
      argocdApps: apps.map((app) => ({ app, cluster: clusterOf(app)?.clusterID })),
      argocdStates: states,
    };
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

/** Plain Applications from an app-of-apps, by their own sync wave. */
function byWave(apps: ArgoApplication[]): { name: string; order: 'waves'; steps: ArgoApplication[][] }[] {
  const waves = [...new Set(apps.map((a) => a.wave))].sort((a, b) => a - b);
  return [{ name: 'app-of-apps', order: 'waves', steps: waves.map((w) => apps.filter((a) => a.wave === w)) }];
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
    const run = new FluxRun(k, fleet.cluster(home), fleet, revision, (m) => log.push(`[flux] ${m}`), options.fluxVersion ?? NEWEST_FLUX);
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
          // checkHealth() may have moved the run on, which narrowing does not see
          // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition
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

/**
 * An exports unit that waits for the application: it holds only ServiceExports and a Service one
 * of them exports does not exist yet in its cluster, so its ServiceExport health is InProgress
 * (ServiceNotFound) until the application's own delivery creates it. Nothing depends on it.
 */
export function awaitsItsServices(r: ReplayResult, unit: string): boolean {
  const u = r.units[unit];
  if (!u?.cluster || u.objects.length === 0 || !u.objects.every((o) => o.kind === 'ServiceExport')) return false;
  const c = r.fleet.cluster(u.cluster);
  return u.objects.some((o) => !c.get('v1', 'Service', o.metadata.namespace, o.metadata.name));
}
