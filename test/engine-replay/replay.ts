import { applicationHealth, applicationSetsIn, applicationsIn, applicationSynced, ArgoSync, deleteApplication, type ArgoApplication } from './argocd';
import type { Fleet } from './controllers';
import { FluxRun, kustomizationsIn } from './flux';
import { DOCUMENTED_ARGO_HEALTH, type ArgoHealthOverrides, type HealthStatus } from './health';
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
  /** Argo CD health checks configured in argocd-cm; default: the ClusterSet check docs/delivery.md gives */
  readonly argocdHealth?: ArgoHealthOverrides;
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
  readonly cluster: string;
  readonly operation: 'None' | 'Running' | 'Succeeded' | 'Failed';
  readonly message: string;
  readonly retries: number;
  readonly health: HealthStatus;
  readonly synced: boolean;
}

export interface FluxStatus {
  readonly cluster: string;
  readonly state: string;
  readonly message: string;
}

export interface ReplayResult {
  readonly log: readonly string[];
  readonly steps: number;
  readonly argocd: Readonly<Record<string, ArgoAppStatus>>;
  readonly flux: Readonly<Record<string, FluxStatus>>;
  /** the objects each unit holds in this revision, by unit name, with the cluster they go to */
  readonly units: Readonly<Record<string, { cluster: string; objects: readonly Obj[] }>>;
  readonly fleet: Fleet;
  /** Flux runs, for a replay of the next revision */
  readonly fluxRuns: ReadonlyMap<string, FluxRun>;
  /** Argo CD Applications with their cluster, for a replay of the next revision */
  readonly argocdApps?: readonly { readonly app: ArgoApplication; readonly cluster: string }[];
}

const CLUSTER_ID = 'antrea-clusterset/cluster-id';
/** steps without any change before the replay counts as settled */
const QUIET = 2;

export function replay(options: ReplayOptions): ReplayResult {
  return options.engine === 'argocd' ? replayArgoCd(options) : replayFlux(options);
}

/** Fleet and engine fingerprints stop the loop once nothing changes (retry counters aside). */
function runLoop(options: ReplayOptions, log: string[], step: (n: number) => void, engineState: () => string, now: () => ReplayResult): number {
  const max = options.maxSteps ?? 200;
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
  const health = options.argocdHealth ?? DOCUMENTED_ARGO_HEALTH;
  const { revision, fleet } = options;
  const groups =
    options.argocdMode === 'applications'
      ? byWave(applicationsIn(revision, `${options.folder}/applications`))
      : applicationSetsIn(revision, options.folder).map((s) => ({ name: s.name, steps: stepsOf(s.applications, s.steps, log, s.name) }));
  const apps = groups.flatMap((g) => g.steps.flat());
  const targets = new Map<string, Obj[]>(apps.map((a) => [a.name, revision.build(a.path)]));
  const clusterOf = (a: ArgoApplication) => a.labels[CLUSTER_ID] ?? a.destination;
  const units = Object.fromEntries(apps.map((a) => [a.name, { cluster: clusterOf(a), objects: targets.get(a.name)! }]));
  // Applications the previous revision had and this one has not: deleted, with or without what they applied
  for (const { app, cluster } of options.previous?.argocdApps ?? [])
    if (!apps.some((a) => a.name === app.name)) deleteApplication(app, fleet.cluster(cluster), (m) => log.push(`[argocd] ${m}`));
  const ops = new Map<string, ArgoSync>();
  const retries = new Map<string, number>();
  const done = (a: ArgoApplication): boolean => {
    const c = fleet.cluster(clusterOf(a));
    const t = targets.get(a.name)!;
    return ops.get(a.name)?.phase === 'Succeeded' && applicationSynced(c, t) && applicationHealth(c, t, health).status === 'Healthy';
  };
  const start = (a: ArgoApplication) => {
    ops.set(a.name, new ArgoSync(a, fleet.cluster(clusterOf(a)), targets.get(a.name)!, (m) => log.push(`[argocd] ${m}`), health));
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
            if (!op) start(a);
            else if (op.phase === 'Failed') {
              const n = retries.get(a.name) ?? 0;
              // syncPolicy.retry: limit attempts after a failed sync, none left: the revision waits for a person
              if (a.retryLimit < 0 || n < a.retryLimit) {
                retries.set(a.name, n + 1);
                log.push(`[argocd] ${a.name}: retry ${n + 1}${a.retryLimit < 0 ? '' : `/${a.retryLimit}`}`);
                start(a);
              }
            }
            ops.get(a.name)!.step();
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
      const c = fleet.cluster(clusterOf(a));
      const t = targets.get(a.name)!;
      const op = ops.get(a.name);
      argocd[a.name] = {
        cluster: clusterOf(a),
        operation: op?.phase ?? 'None',
        message: op?.message ?? 'never synced',
        retries: retries.get(a.name) ?? 0,
        health: applicationHealth(c, t, health),
        synced: applicationSynced(c, t),
      };
    }
    return { log: [...log], steps, argocd, flux: {}, units, fleet, fluxRuns: new Map(), argocdApps: apps.map((app) => ({ app, cluster: clusterOf(app) })) };
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
function byWave(apps: ArgoApplication[]): { name: string; steps: ArgoApplication[][] }[] {
  const waves = [...new Set(apps.map((a) => a.wave))].sort((a, b) => a - b);
  return [{ name: 'app-of-apps', steps: waves.map((w) => apps.filter((a) => a.wave === w)) }];
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
  const ks = folders.flatMap((f) => kustomizationsIn(revision, f));
  const runs = new Map<string, FluxRun>();
  for (const k of ks) {
    const run = new FluxRun(k, fleet.cluster(k.cluster), revision, (m) => log.push(`[flux] ${m}`));
    const before = options.previous?.fluxRuns.get(k.name);
    if (before) run.inventory = before.inventory;
    runs.set(k.name, run);
  }
  const units = Object.fromEntries(ks.map((k) => [k.name, { cluster: k.cluster, objects: revision.build(k.path) }]));
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
    for (const [name, r] of runs) flux[name] = { cluster: r.k.cluster, state: r.state, message: r.message };
    return { log: [...log], steps, argocd: {}, flux, units, fleet, fluxRuns: runs };
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
  if (!u || u.objects.length === 0 || !u.objects.every((o) => o.kind === 'ServiceExport')) return false;
  const c = r.fleet.cluster(u.cluster);
  return u.objects.some((o) => !c.get('v1', 'Service', o.metadata.namespace, o.metadata.name));
}
