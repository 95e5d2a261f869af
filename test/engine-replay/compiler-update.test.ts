import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { build } from 'esbuild';
import { stringify } from 'yaml';
import { beforeAll, describe, expect, test } from 'vitest';
import { soakRows } from '../helpers/soak';
import { requireTool } from '../helpers/tools';
import { ApiServer } from './kubernetes/api-server';
import { Fleet } from './antrea/controllers';
import { keyOf, refOf, type Obj } from './kubernetes/kube';
import { awaitsItsServices, replay, type ReplayResult } from './replay';
import { recordDeletions } from './kubernetes/recorded-deletions';
import { Revision } from './engines/revision';
import { compileDefinition, fleetFor, readDefinition, registerDelivery, withBothEngines, type DefinitionData } from './scenario';
import { deployApplications } from './antrea/verification';
import { REPLAYED_ENGINES } from './engines/replayed-engines';
import type { EngineKey } from '../../src/delivery/engine';

/**
 * #26's one-time move replayed: clusters that run the bundles of the compiler before #26
 * (commit 31d9eef: APIServices in `2-webhooks`, ServiceExports in `4-resources`) receive the
 * current `dist/` for the same definitions. Each engine syncs the new revision on the fleet the
 * old one left healthy; Antrea's CNI, its controllers, its CRDs, the ClusterSet and the member
 * tokens must never be deleted on the way, and every object the engine deletes is written down
 * here: the sentence of docs/delivery.md ("Bundles written by an earlier version …") rests on it.
 *
 * The old output is what that commit's own compiler writes (run from `git archive`), for every
 * example with both engines, and equals the committed `dist/` of that commit wherever both hold a
 * file; the new output is today's compiler's, in memory (`synth --check` holds `dist/` equal to it).
 * The old Argo CD output needed a hand to converge at all (see `unstick`).
 */
const OLD = '31d9eef';

const git = (...args: string[]): string => execFileSync('git', args, { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
const hasCommit = (() => {
  try {
    git('cat-file', '-e', `${OLD}^{commit}`);
    return true;
  } catch {
    return false;
  }
})();

/** The files of `dist/` at a commit, as the engines read them from git. */
function distAt(commit: string): Revision {
  const paths = git('ls-tree', '-r', '-z', '--name-only', commit, 'dist').split('\0').filter(Boolean);
  const batch = execFileSync('git', ['cat-file', '--batch'], { input: paths.map((p) => `${commit}:${p}`).join('\n') + '\n', maxBuffer: 256 * 1024 * 1024 });
  const files = new Map<string, string>();
  let at = 0;
  for (const p of paths) {
    const eol = batch.indexOf(10, at);
    const size = Number(batch.subarray(at, eol).toString().split(' ')[2]);
    files.set(p, batch.subarray(eol + 1, eol + 1 + size).toString('utf8'));
    at = eol + 1 + size + 1;
  }
  return new Revision(files);
}

const files = (root: string, prefix: string): Map<string, string> => {
  const out = new Map<string, string>();
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir)) {
      const p = join(dir, name);
      if (statSync(p).isDirectory()) walk(p);
      else out.set(join(prefix, relative(root, p)), readFileSync(p, 'utf8'));
    }
  };
  walk(root);
  return out;
};

/**
 * The old compiler's output for definitions that name both engines: the committed `dist/` holds
 * only the engine each example names, so the compiler of the old commit (`git archive`, run with
 * this checkout's node_modules) synthesizes the other one. A test below holds it equal to the
 * committed `dist/` of that commit wherever both have a file.
 */
async function oldSynth(definitions: readonly DefinitionData[]): Promise<Revision> {
  const dir = mkdtempSync(join(process.env.CLUSTERSET_TEST_TMPDIR ?? '/dev/shm', 'compiler-update-'));
  try {
    execFileSync('sh', ['-c', `git archive ${OLD} bin src schema package.json tsconfig.json | tar -x -C "$1"`, 'sh', dir]);
    symlinkSync(resolve('node_modules'), join(dir, 'node_modules'));
    // its bin runs lib/cli.js while that is newer than src/ (else the sources through tsx, a second
    // or two of CPU more): built as that commit's package was, one ES module bundle
    await build({
      absWorkingDir: dir,
      entryPoints: ['src/cli.ts'],
      outfile: join(dir, 'lib/cli.js'),
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node22',
      packages: 'external',
      logLevel: 'warning',
    });
    mkdirSync(join(dir, 'clustersets'));
    const paths = definitions.map((d) => {
      const path = join('clustersets', `${d.metadata.name}.yaml`);
      writeFileSync(join(dir, path), stringify(d));
      return path;
    });
    execFileSync(process.execPath, ['bin/clusterset.mjs', 'synth', '--rebuild', '--out', 'dist', ...paths], { cwd: dir, encoding: 'utf8' });
    return new Revision(files(join(dir, 'dist'), 'dist'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** What must never be deleted, not even deleted and re-created: Antrea's CNI and controllers, the CRDs, the ClusterSet, the tokens. */
const PROTECTED = (o: Pick<Obj, 'kind' | 'metadata'> & { type?: string }): boolean =>
  o.kind === 'CustomResourceDefinition' ||
  o.kind === 'ClusterSet' ||
  ((o.kind === 'Deployment' || o.kind === 'DaemonSet') && /^antrea-(agent|controller|mc-controller)$/.test(o.metadata.name)) ||
  (o.kind === 'Secret' && (o.type === 'kubernetes.io/service-account-token' || /token/.test(o.metadata.name)));

/** Units that did not converge, objects of the revision the fleet lacks. */
function notConverged(r: ReplayResult): string[] {
  const out: string[] = [];
  for (const [name, a] of Object.entries(r.argocd))
    if (a.operation !== 'Succeeded' || !a.synced || a.health.status !== 'Healthy')
      out.push(`${name}: ${a.operation} ${a.message}; ${a.health.status} ${a.health.message ?? ''}`);
  for (const [name, f] of Object.entries(r.flux)) if (f.state !== 'Ready' && !awaitsItsServices(r, name)) out.push(`${name}: ${f.state} ${f.message}`);
  for (const [name, u] of Object.entries(r.units))
    for (const o of u.objects)
      if (u.cluster === undefined || !r.fleet.cluster(u.cluster).getLike(o)) out.push(`${u.cluster ?? `(${name} reaches no cluster)`}: ${refOf(o)} missing`);
  return out;
}

/** By cluster and object key: the unit that holds it. */
const unitsOf = (r: ReplayResult): Map<string, string> => {
  const out = new Map<string, string>();
  for (const [unit, u] of Object.entries(r.units)) for (const o of u.objects) out.set(`${String(u.cluster)} ${keyOf(o)}`, unit);
  return out;
};

/**
 * The old Argo CD output never converged by itself: wave 2 waits for the APIServices, which only
 * antrea-controller (wave 3) makes Available (gitops-engine health_apiservice.go), the deadlock #26
 * fixed. A cluster that runs it got there by hand: here the operator applies the cluster's
 * `3-workloads` folder (`kubectl apply -k`) where a sync waits for an APIService, once per RollingSync
 * step (the leader, then the members).
 */
const unstick = (old: Revision, clusterSet: string) =>
  [1, 2, 3].map(() => ({
    at: 'quiet' as const,
    run: (fleet: Fleet, now: () => ReplayResult) => {
      const done: string[] = [];
      for (const a of Object.values(now().argocd)) {
        if (a.operation !== 'Running' || !a.message.includes('APIService') || a.cluster === undefined) continue;
        const objects = old.build(`dist/${clusterSet}/${a.cluster}/3-workloads`);
        for (const o of objects) {
          const r = fleet.cluster(a.cluster).apply(o);
          if (!r.ok) throw new Error(`kubectl apply ${refOf(o)}: ${r.error}`);
        }
        done.push(a.cluster);
      }
      return `the operator ran kubectl apply -k dist/${clusterSet}/<cluster>/3-workloads on ${done.join(', ') || 'no cluster'}`;
    },
  }));

/** Clusters with nothing in them, the engines registered: enough to list the units a revision holds. */
function emptyFleet(d: DefinitionData, compiled: Parameters<typeof registerDelivery>[1]): Fleet {
  const fleet = new Fleet(d.spec.clusters.map((c) => new ApiServer({ clusterID: c.clusterID, nodes: [], cni: 'other' })));
  registerDelivery(fleet, compiled);
  return fleet;
}

/** `kubectl annotate` of every live object that the next revision holds in another unit. */
function guardMoves(fleet: Fleet, first: ReplayResult, next: ReplayResult, engine: EngineKey): void {
  const nextUnits = unitsOf(next);
  for (const [unit, u] of Object.entries(first.units))
    for (const o of u.objects) {
      const to = nextUnits.get(`${String(u.cluster)} ${keyOf(o)}`);
      if (to === undefined || to === unit || u.cluster === undefined) continue;
      const c = fleet.cluster(u.cluster);
      const live = c.getLike(o)!;
      const annotations = { ...live.metadata.annotations };
      if (engine === 'flux') annotations['kustomize.toolkit.fluxcd.io/prune'] = 'disabled';
      else annotations['argocd.argoproj.io/sync-options'] = [annotations['argocd.argoproj.io/sync-options'], 'Prune=false'].filter(Boolean).join(',');
      c.put({ ...live, metadata: { ...live.metadata, annotations } });
    }
}

const title = (c: Case): string =>
  `${c.clusterSet}, ${c.engine === 'flux' ? 'Flux' : c.argocdMode === 'applications' ? 'Argo CD (plain Applications)' : 'Argo CD (ApplicationSet)'}${c.guarded ? ', moved objects guarded by the operator' : ''}`;

interface Case {
  readonly clusterSet: string;
  readonly engine: EngineKey;
  /** Argo CD: the ApplicationSets (default) or the plain Applications of `argocd/applications/` from an app-of-apps */
  readonly argocdMode?: 'applicationset' | 'applications';
  /**
   * the operator's guard before the update: each object that moves to another unit gets, on the live
   * object, the annotation the engine reads before it prunes (kustomize-controller
   * kustomization_controller.go prune: DeleteOptions Exclusions `kustomize.toolkit.fluxcd.io/prune:
   * disabled`; gitops-engine sync_context.go pruneObject: `Prune=false` in the live object's
   * sync-options). Both read the live object, which the old output wrote: a guard in the new output
   * comes too late.
   */
  readonly guarded?: boolean;
  /** what the engine deletes and re-creates on the first sync after the update: `cluster: Kind ns/name` */
  readonly recreated: readonly string[];
  /** an example through its second engine, in the soak tier only (test/helpers/soak.ts): npm test has each example through one, and both engines */
  readonly soak?: true;
}

/**
 * Argo CD syncs one Application per cluster whose waves are the layers: an APIService that moves
 * from wave 2 to wave 3 stays in its Application and is only re-annotated. Flux applies each layer
 * with its own Kustomization, and `3-workloads` depends on `2-webhooks`, which reconciles the new
 * revision first and prunes the APIService it no longer holds (kustomization_controller.go
 * reconcile → prune); `3-workloads` applies it again once `2-webhooks` is Ready. The ServiceExport
 * moves from `4-resources` to the exports Kustomization, which depends on `4-resources`: pruned,
 * then re-created, the same way.
 */
const APISERVICES = ['v1alpha1.stats.antrea.io', 'v1beta1.system.antrea.io', 'v1beta2.controlplane.antrea.io'];
const apiServicesOf = (...clusters: string[]) => clusters.flatMap((c) => APISERVICES.map((a) => `${c}: APIService ${a}`));
const CASES: Case[] = [
  { clusterSet: 'demo-clusterset', engine: 'argocd', recreated: [] },
  {
    clusterSet: 'demo-clusterset',
    engine: 'flux',
    recreated: apiServicesOf('demo-cluster-leader', 'demo-cluster-member2', 'demo-cluster-member3'),
    soak: true,
  },
  { clusterSet: 'eks-clusterset', engine: 'argocd', recreated: [], soak: true },
  { clusterSet: 'eks-clusterset', engine: 'flux', recreated: apiServicesOf('west-cluster', 'east-cluster') },
  { clusterSet: 'helm-clusterset', engine: 'argocd', recreated: [], soak: true },
  // the multiclusterOnly clusters run Antrea from Helm: only onprem-north's full bundle holds APIServices
  { clusterSet: 'helm-clusterset', engine: 'flux', recreated: apiServicesOf('onprem-north') },
  { clusterSet: 'test-clusterset', engine: 'argocd', recreated: [] },
  // an app-of-apps syncs the cluster's Application (wave 0) before its exports Application: the first prunes the export
  { clusterSet: 'test-clusterset', engine: 'argocd', argocdMode: 'applications', recreated: ['test-cluster-west: ServiceExport demo/nginx'] },
  {
    clusterSet: 'test-clusterset',
    engine: 'flux',
    recreated: [...apiServicesOf('test-cluster-north', 'test-cluster-east', 'test-cluster-west'), 'test-cluster-west: ServiceExport demo/nginx'],
  },
  // the operator annotates the objects that move before merging the update: nothing is deleted
  { clusterSet: 'test-clusterset', engine: 'flux', guarded: true, recreated: [] },
  { clusterSet: 'test-clusterset', engine: 'argocd', argocdMode: 'applications', guarded: true, recreated: [] },
];

const EXAMPLES = readdirSync('clustersets')
  .filter((f) => f.endsWith('.yaml'))
  .sort()
  .map((f) => withBothEngines(readDefinition(join('clustersets', f))));

describe.skipIf(!hasCommit)(`the compiler update from ${OLD} (before #26) on running clusters`, () => {
  let old: Revision;
  beforeAll(async () => {
    old = await oldSynth(EXAMPLES);
  }, 120_000);

  test(`the old output replayed is the committed dist/ of ${OLD}, wherever both hold a file`, () => {
    const committed = distAt(OLD);
    // dist/manifest.json lists every file synth wrote, and the old output here holds both engines
    const shared = [...committed.files.keys()].filter((p) => old.files.has(p) && p !== 'dist/manifest.json');
    // every bundle and shared unit, and the engine folder each example names
    expect(shared.length).toBeGreaterThan(committed.files.size * 0.9);
    expect(shared.filter((p) => old.files.get(p) !== committed.files.get(p))).toEqual([]);
    for (const d of EXAMPLES)
      for (const e of REPLAYED_ENGINES)
        expect(
          [...old.files.keys()].some((p) => p.startsWith(`dist/${d.metadata.name}/${e}/`)),
          `${d.metadata.name} ${e}`,
        ).toBe(true);
  });

  for (const c of soakRows(CASES, (c) => !c.soak))
    test(`${title(c)}: nothing of Antrea is deleted, what moved is re-created at most once, every unit converges`, async () => {
      const definition = EXAMPLES.find((d) => d.metadata.name === c.clusterSet)!;
      const compiled = await compileDefinition(definition);
      const fleet = await fleetFor(definition, compiled, { appNamespaces: true });
      deployApplications(compiled.definition)(fleet);
      const { revision: current, folder } = compiled.forEngine(c.engine);
      // one Flux per cluster read flux/<clusterID>/ in the old output (flux-per-cluster/<clusterID>/ since #49): each
      // cluster's Flux applied its old folder, and after the update the person re-points its parent (docs/delivery.md)
      const oldFolder = [...old.files.keys()].some((p) => p.startsWith(`${folder}/`)) ? folder : `dist/${c.clusterSet}/${c.engine}`;
      if (oldFolder !== folder)
        for (const [f, home] of [...fleet.operator.fluxHomes])
          if (f.startsWith(`${folder}/`)) fleet.operator.fluxHomes.set(`${oldFolder}/${f.slice(folder.length + 1)}`, home);

      const first = replay({
        engine: c.engine,
        argocdMode: c.argocdMode,
        revision: old,
        folder: oldFolder,
        fleet,
        operator: true,
        events: c.engine === 'argocd' ? unstick(old, c.clusterSet) : [],
      });
      expect(notConverged(first), first.log.join('\n')).toEqual([]);

      if (c.guarded)
        guardMoves(
          fleet,
          first,
          replay({ engine: c.engine, argocdMode: c.argocdMode, revision: current, folder, fleet: emptyFleet(definition, compiled), maxSteps: 0 }),
          c.engine,
        );

      const recorded = recordDeletions(fleet.clusters.values());
      const next = replay({ engine: c.engine, argocdMode: c.argocdMode, revision: current, folder, fleet, operator: true, previous: first });
      const deletions = recorded.map((d) => ({ cluster: d.cluster, key: keyOf(d.obj), ref: refOf(d.obj) }));
      const log = next.log.join('\n');
      if (process.env.UPDATE_REPLAY_LOG) console.log(`${c.clusterSet} ${c.engine}\n${log}`);
      expect(notConverged(next), log).toEqual([]);

      // never deleted, not even deleted and re-created (and the replay does hold such objects)
      const liveBefore = new Map<string, Obj>();
      for (const u of Object.values(first.units)) for (const o of u.objects) liveBefore.set(`${String(u.cluster)} ${keyOf(o)}`, o);
      expect(new Set([...liveBefore.values()].filter(PROTECTED).map((o) => o.kind))).toEqual(
        new Set(['CustomResourceDefinition', 'ClusterSet', 'Deployment', 'DaemonSet', 'Secret']),
      );
      expect(
        deletions.filter((d) => PROTECTED(liveBefore.get(`${d.cluster} ${d.key}`) ?? { kind: d.key.split('/')[1]!, metadata: { name: d.key.split('/')[3]! } })),
        log,
      ).toEqual([]);

      // what is deleted is only what moved between units, each once, and it is back at the end
      const oldUnits = unitsOf(first);
      const newUnits = unitsOf(next);
      const moved = deletions.filter((d) => oldUnits.has(`${d.cluster} ${d.key}`) && newUnits.has(`${d.cluster} ${d.key}`));
      const gone = deletions.filter((d) => !newUnits.has(`${d.cluster} ${d.key}`));
      expect(moved.length + gone.length, `deleted although neither moved nor removed: ${JSON.stringify(deletions)}`).toBe(deletions.length);
      expect(moved.map((d) => `${d.cluster}: ${d.ref}`).sort(), log).toEqual([...c.recreated].sort());
      for (const d of moved) expect(oldUnits.get(`${d.cluster} ${d.key}`), `${d.ref} deleted without moving`).not.toBe(newUnits.get(`${d.cluster} ${d.key}`));
      // removed by the new output altogether
      expect(
        gone.map((d) => `${d.cluster}: ${d.ref}`),
        log,
      ).toEqual([]);
    });
});

// a shallow clone lacks the old commit: say so rather than pass (and under .ci/run, fail: test/helpers/tools.ts)
requireTool('the compiler update replay', `git history with commit ${OLD} (a shallow clone? fetch-depth: 0)`, hasCommit);
