import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { APPLICATION_RESOURCE } from '../../src/delivery/argocd/removal';
import { planChanges } from '../../src/plan/plan-changes';
import { stringify } from 'yaml';
import { runWithFakeKubectl, type FakeOutput, type KubectlCall } from '../helpers/fake-kubectl';
import { revision as planRevision, type Definition } from '../helpers/plan-revision';
import { soakRows } from '../helpers/soak';
import type { ApiServer } from './kubernetes/api-server';
import { RESOURCES_FINALIZER } from './engines/argocd';
import { OWNER } from './engines/flux';
import type { Fleet } from './antrea/controllers';
import { ArgoCdObjects, CONTEXT, FluxObjects } from './hand-over-engines';
import { FLUX_MANAGER } from './kubernetes/server-side-apply';
import { keyOf, refOf, type Obj } from './kubernetes/kube';
import type { Revision } from './engines/revision';
import { replay, type ReplayResult } from './replay';
import { notConverged } from './convergence';
import { recordDeletions } from './kubernetes/recorded-deletions';
import { compileDefinition, fleetFor, readDefinition, registerDelivery, type DefinitionData } from './scenario';
import { deployApplications } from './antrea/verification';

/**
 * #37: a change of delivery engine, replayed end to end. test-clusterset is installed through one
 * engine and converges; the plan of the change to the other engine is followed as printed: the
 * new engine is prepared (registerDelivery) and applies the head until it converges, then the
 * checklist's commands remove the old engine's objects, each kubectl call made on the replay's
 * model of that engine with its own deletion rules; then the new engine keeps applying the head.
 * Nothing of Antrea may be deleted on the way (test/plan/engine-changes.test.ts checks the same
 * commands against recorded calls only).
 */

const TEST_CLUSTERSET = readDefinition('clustersets/test-clusterset.yaml');
const ARGOCD = { namespace: 'argocd', project: 'default', repoURL: 'https://git.example.com/fleet.git', targetRevision: 'main' };

/**
 * How test-clusterset is delivered: a hub Flux on the leader (as committed), a hub Flux on a
 * management cluster outside the definition (`flux-mgmt`: every cluster has a kubeconfig Secret),
 * one Flux per cluster, Argo CD, or nobody (`spec.delivery` names no engine).
 */
type Engine = 'argocd' | 'flux-hub' | 'flux-mgmt' | 'flux-own' | 'manual';

/** test-clusterset as committed (a hub Flux on the leader), or delivered another way (Argo CD: each cluster registered under its ID). */
function deliveredBy(engine: Engine): DefinitionData {
  const d = structuredClone(TEST_CLUSTERSET);
  if (engine === 'flux-hub') return d;
  if (engine === 'flux-mgmt') {
    for (const c of d.spec.clusters) c.delivery = { flux: { kubeConfigSecretRef: { name: `${c.clusterID}-kubeconfig` } } };
    return d;
  }
  if (engine === 'argocd') d.spec.delivery = { argocd: ARGOCD };
  if (engine === 'manual') d.spec.delivery = {};
  for (const c of d.spec.clusters) c.delivery = engine === 'argocd' ? { argocd: { name: c.clusterID } } : {};
  return d;
}
const replayed = (engine: Engine): 'argocd' | 'flux' => (engine === 'argocd' ? 'argocd' : 'flux');

/** What must never be deleted, not even deleted and re-created (compiler-update.test.ts PROTECTED), and the ServiceExports. */
const PROTECTED = (o: Pick<Obj, 'kind' | 'metadata'> & { type?: string }): boolean =>
  o.kind === 'CustomResourceDefinition' ||
  o.kind === 'ClusterSet' ||
  o.kind === 'ServiceExport' ||
  ((o.kind === 'Deployment' || o.kind === 'DaemonSet') && /^antrea-(agent|controller|mc-controller)$/.test(o.metadata.name)) ||
  (o.kind === 'Secret' && (o.type === 'kubernetes.io/service-account-token' || /token/.test(o.metadata.name)));

/**
 * The hand-overs the plan prints (test/plan/engine-changes.test.ts CASES), and each engine removed.
 * Between a hub and one Flux per cluster, the new engine's README takes the old parent in the hub's
 * cluster over by name (repointParent). npm test runs Argo CD → hub Flux, and a hub Flux → one Flux
 * per cluster: there the re-pointed parent pruned the hub's unguarded exports Kustomization of
 * test-cluster-west, whose finalizer deleted its ServiceExport, until the plan removed the hub's other
 * Kustomizations before that README (delivery/flux/hand-over.ts).
 */
const DIRECTIONS: readonly { from: Engine; to: Engine }[] = [
  { from: 'argocd', to: 'flux-hub' },
  { from: 'flux-hub', to: 'flux-own' },
  { from: 'flux-mgmt', to: 'flux-own' },
  { from: 'flux-own', to: 'flux-mgmt' },
  { from: 'flux-hub', to: 'argocd' },
  { from: 'flux-own', to: 'flux-hub' },
  { from: 'flux-own', to: 'argocd' },
  { from: 'flux-hub', to: 'manual' },
  { from: 'argocd', to: 'manual' },
  { from: 'flux-own', to: 'manual' },
];

const GATEWAY = 'multicluster.antrea.io/gateway';

/**
 * What kubectl prints for a field manager's release (src/kube/kubectl-command.ts releaseFieldManager):
 * `kubectl kustomize <folder>` the folder's objects as YAML (Revision.build: the files synth wrote), and
 * `kubectl --context <cluster> get -f - -o json`, given exactly that YAML, those objects as the cluster
 * holds them (a List, or the one object; `--ignore-not-found` leaves out the missing).
 */
/** A folder's objects as kubectl kustomize prints them, once per build (Revision.build's objects are never mutated). */
const printed = new WeakMap<readonly Obj[], string>();
function yamlOf(objects: readonly Obj[]): string {
  let yaml = printed.get(objects);
  if (yaml === undefined) printed.set(objects, (yaml = objects.map((o) => stringify(o)).join('---\n')));
  return yaml;
}

function bundleReads(revision: Revision, fleet: Fleet, command: string): FakeOutput[] {
  // only what the command names (one cluster's bundle, through its context): the answers to reads it
  // never makes were most of this test's time (each printed as YAML, compared by the fake kubectl);
  // a read it makes and is not answered here leaves the release without objects, and the Gateway
  // annotation below would stay
  const words = command.split(/[\s'"]+/);
  const contexts = new Set(words.filter((_, i) => words[i - 1] === '--context'));
  const rootOf = (path: string) => path.split('/').slice(0, 3).join('/');
  const roots = new Set(words.map(rootOf));
  // the folders the release reads: each bundle's root and its units outside it (not the layers, not the shared units)
  const dirs = [...revision.files.keys()]
    .filter((p) => p.endsWith('/kustomization.yaml'))
    .map((p) => p.slice(0, -'/kustomization.yaml'.length))
    .filter((d) => /^[^/]+\/[^/]+\/[^/_][^/]*(\/(exports\/[^/]+|verify|tier-restart))?$/.test(d) && roots.has(rootOf(d)));
  return dirs.flatMap((dir) => {
    const objects = revision.build(dir);
    const yaml = yamlOf(objects);
    return [
      { pattern: `*" kustomize ${dir} "*`, stdout: yaml },
      ...[...fleet.clusters.values()]
        .filter((c) => contexts.has(c.clusterID))
        .map((c) => {
          const live = objects.map((o) => c.getLike(o)).filter((o) => o !== undefined);
          const json = live.length === 1 ? live[0] : { apiVersion: 'v1', kind: 'List', items: live };
          return { pattern: `*" --context ${c.clusterID} get "*`, stdin: yaml, stdout: live.length === 0 ? '' : `${JSON.stringify(json, null, 4)}\n` };
        }),
    ];
  });
}

/** `kubectl apply --server-side --field-manager=<m> -f -` of the objects jq wrote, one JSON document a line. */
function release(cluster: ApiServer, call: KubectlCall): void {
  const manager = call.args.find((a) => a.startsWith('--field-manager='))?.slice('--field-manager='.length);
  expect(manager, call.args.join(' ')).toBeDefined();
  expect(call.args).toContain('--server-side');
  const objects = (call.stdin ?? '')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Obj);
  for (const o of objects) {
    const r = cluster.apply(o, { manager: manager!, force: false });
    expect(r.ok, `${refOf(o)}: ${JSON.stringify(r)}`).toBe(true);
  }
}

/** Every apply kustomize-controller makes from now on: the cluster, and the Kustomization that made it (its owner label). */
function recordFluxApplies(clusters: Iterable<ApiServer>): { cluster: string; by: string; ref: string }[] {
  const out: { cluster: string; by: string; ref: string }[] = [];
  for (const c of clusters) {
    const original = c.apply.bind(c);
    // callers may leave the options out (tsc types them optional); the rule reads the contextual type
    // eslint-disable-next-line @typescript-eslint/no-useless-default-assignment
    c.apply = (o, options = {}) => {
      const r = original(o, options);
      // a Kustomization's apply carries its owner label (a field manager's release, as kustomize-controller, does not)
      if (r.ok && !options.dryRun && options.manager === FLUX_MANAGER && o.metadata.labels?.[OWNER] !== undefined)
        out.push({ cluster: c.clusterID, by: o.metadata.labels[OWNER], ref: refOf(o) });
      return r;
    };
  }
  return out;
}

/** Three directions in npm test, the others in the soak tier (test/helpers/soak.ts). */
describe.each(soakRows(DIRECTIONS, (d) => (d.from === 'argocd' && d.to === 'flux-hub') || d.to === 'flux-own'))('$from → $to', ({ from, to }) => {
  beforeEach(() => {
    vi.stubEnv('ARGOCD_CONTEXT', CONTEXT.argocd);
    vi.stubEnv('FLUX_CONTEXT', CONTEXT.flux);
  });
  afterEach(() => vi.unstubAllEnvs());

  test('the plan followed as printed deletes nothing of Antrea, and the new engine converges', async () => {
    const [baseDef, headDef] = [deliveredBy(from), deliveredBy(to)];
    const [base, head] = [await compileDefinition(baseDef), await compileDefinition(headDef)];
    const fleet = await fleetFor(baseDef, base, { appNamespaces: true, ...((from === 'flux-mgmt' || to === 'flux-mgmt') && { fluxHub: CONTEXT.flux }) });
    deployApplications(base.definition)(fleet);
    const first = replay({ engine: replayed(from), ...base.forEngine(replayed(from)), fleet, operator: true });
    expect(notConverged(first), first.log.join('\n')).toEqual([]);
    const deletions = recordDeletions(fleet.clusters.values());
    const applies = recordFluxApplies(fleet.clusters.values());

    // the plan: destructive, and the checklist's commands for the hand-over
    const plan = planChanges(
      await planRevision({ 'cs.yaml': baseDef as unknown as Definition }),
      await planRevision({ 'cs.yaml': headDef as unknown as Definition }),
    );
    expect(plan.changes.some((c) => c.impact === 'destructive' && c.about?.delivery)).toBe(true);
    // the checklist's hand-over in its order: the commands of each item, and the new engine's objects applied where its
    // "Deliver" item stands (test/plan/engine-changes.test.ts holds what the items say)
    const items = (plan.checklist ?? []).filter((i) => (i.commands ?? []).length > 0 || i.text.startsWith('Deliver '));
    const commands = items.flatMap((i) => i.commands ?? []);
    expect(commands.length).toBeGreaterThan(0);

    const old =
      from === 'argocd'
        ? new ArgoCdObjects(base, first)
        : new FluxObjects(base, first, from === 'flux-own' ? undefined : fleet.operator.fluxHomes.get(base.forEngine('flux').folder), fleet);
    // the old engine's deletion rules have something to delete: Applications with the resources finalizer (the exports
    // units, #38), Kustomizations with prune on and an inventory
    if (old instanceof ArgoCdObjects) expect([...old.apps.values()].filter((a) => a.finalizers.includes(RESOURCES_FINALIZER)).length).toBeGreaterThan(0);
    else expect([...first.fluxRuns.values()].filter((r) => r.k.prune && r.inventory.length > 0).length).toBe(first.fluxRuns.size);
    // before merging the new engine is prepared; after merging it applies the head until every cluster is Healthy or
    // Ready (its README's parents in each Flux, taking over by name a Flux's old parent); with no new engine, nobody applies
    let taken: ReplayResult | undefined;
    const deliver = () => {
      // a hub on a management cluster: the person runs the README's commands there (`$FLUX_CONTEXT`)
      if (to === 'flux-mgmt') fleet.operator.fluxHomes.set(head.forEngine('flux').folder, CONTEXT.flux);
      registerDelivery(fleet, head);
      taken = replay({ engine: replayed(to), ...head.forEngine(replayed(to)), fleet, operator: true });
      expect(notConverged(taken), taken.log.join('\n')).toEqual([]);
      if (old instanceof FluxObjects && to !== 'argocd')
        for (const flux of new Set([...taken.fluxRuns.values()].map((r) => r.home.clusterID)))
          old.repointParent(flux, new Set([...taken.fluxRuns].filter(([, r]) => r.home.clusterID === flux).map(([n]) => n)));
    };

    // once merged, git holds the head: the old parents reconcile it at their interval, at any point of the hand-over
    const headRevision = head.forEngine('flux').revision;
    const parentsReconcile = () => {
      if (old instanceof FluxObjects) old.reconcileParents(headRevision, (m) => parentLog.push(m));
    };
    const parentLog: string[] = [];
    parentsReconcile();
    // the old engine's objects go with the checklist's commands, each call on the old engine's objects
    const calls: KubectlCall[] = [];
    for (const item of items) {
      if (!item.commands) {
        deliver();
        parentsReconcile();
        continue;
      }
      // one command at a time: a loop lists what is left when it runs
      for (const command of item.commands) {
        const lists = old instanceof ArgoCdObjects ? { [`${CONTEXT.argocd} ${APPLICATION_RESOURCE}`]: old.listed() } : old.lists(runWithFakeKubectl([command]));
        // (what kubectl reads of the bundle and the clusters matters only to a command that builds the bundle)
        const ran = runWithFakeKubectl([command], lists, /\bkustomize\b/.test(command) ? bundleReads(headRevision, fleet, command) : []);
        for (const call of ran) {
          // a field manager letting go of its fields: kubectl reads the bundle and the live objects (bundleReads), jq
          // makes their identities, and the apply is made on the cluster as that manager
          if (call.verb === 'kustomize' || (call.verb === 'get' && call.stdin !== undefined)) continue;
          if (call.verb === 'apply') {
            release(fleet.cluster(call.context!), call);
            fleet.settle();
            continue;
          }
          if (old instanceof ArgoCdObjects) expect(call.context, call.args.join(' ')).toBe(CONTEXT.argocd);
          expect(call.namespace, call.args.join(' ')).toBe(from === 'argocd' ? ARGOCD.namespace : 'flux-system');
          old.perform(call);
          fleet.settle();
          parentsReconcile();
        }
        calls.push(...ran);
      }
    }
    expect(taken !== undefined, 'the checklist names the new engine').toBe(to !== 'manual');
    // the old engine holds nothing of the ClusterSet any more (but what the new engine took over by name)
    if (old instanceof ArgoCdObjects) expect([...old.sets.keys(), ...old.apps.keys()]).toEqual([]);
    else expect(old.left()).toEqual([]);
    expect(calls.filter((c) => c.verb === 'delete').length).toBeGreaterThan(0);

    // nothing of Antrea was deleted on the way (and the fleet holds such objects), nor anything else the old engine applied
    const held = Object.values(first.units).flatMap((u) => u.objects);
    expect(new Set(held.filter(PROTECTED).map((o) => o.kind))).toEqual(
      new Set(['CustomResourceDefinition', 'ClusterSet', 'ServiceExport', 'Deployment', 'DaemonSet', 'Secret']),
    );
    const applied = new Set(Object.values(first.units).flatMap((u) => u.objects.map((o) => `${String(u.cluster)} ${keyOf(o)}`)));
    const deleted = () => deletions.filter((d) => PROTECTED(d.obj) || applied.has(`${d.cluster} ${keyOf(d.obj)}`)).map((d) => `${d.cluster} ${refOf(d.obj)}`);
    expect(deleted(), `deleted by the new engine or the hand-over's commands:\n${calls.map((c) => c.args.join(' ')).join('\n')}`).toEqual([]);
    // every Kustomization applied only to the cluster it applied to in the first install, or as the new engine applies it
    const where = new Map(
      [...Object.entries(first.units), ...Object.entries(taken?.units ?? {})].filter(([, u]) => u.cluster !== undefined).map(([n, u]) => [n, u.cluster!]),
    );
    const wrong = [
      ...new Set(applies.filter((a) => where.get(a.by) !== a.cluster).map((a) => `${a.by} applied ${a.ref} to ${a.cluster}, not ${String(where.get(a.by))}`)),
    ];
    expect(wrong.slice(0, 10), `${wrong.length} applies to the wrong cluster:\n${parentLog.slice(0, 40).join('\n')}`).toEqual([]);
    // and it all still runs, delivered or not
    const gone = Object.values(first.units).flatMap((u) =>
      u.objects.filter((o) => !fleet.cluster(u.cluster!).getLike(o)).map((o) => `${String(u.cluster)} ${refOf(o)}`),
    );
    expect(gone).toEqual([]);

    // the new engine keeps applying the head: still converged, and still nothing deleted
    if (!taken) return;
    const after = replay({ engine: replayed(to), ...head.forEngine(replayed(to)), fleet, operator: true, previous: taken });
    expect(notConverged(after), after.log.join('\n')).toEqual([]);
    expect(deleted(), `deleted once the new engine applies alone:\n${after.log.join('\n')}`).toEqual([]);

    // #49 item 2: a later change drops a field, and the new engine's removal takes effect: test-cluster-west's Gateway
    // retired, its Node loses the annotation (server-side apply removes a field its manager no longer applies only when
    // no other manager owns it: the old engine's manager let go of it at the end of the hand-over)
    const retiredDef = deliveredBy(to);
    const west = retiredDef.spec.clusters.find((c) => c.clusterID === 'test-cluster-west')!;
    // retired for another candidate (a member keeps one: gateway-missing), a Node the cluster has
    west.gateways = [...west.gateways!.map((g) => ({ ...g, retired: true })), { node: 'test-cluster-west-worker' }];
    const retired = await compileDefinition(retiredDef);
    const node = () => fleet.cluster('test-cluster-west').get('v1', 'Node', undefined, 'test-cluster-west-node-1')!;
    expect(node().metadata.annotations?.[GATEWAY]).toBeDefined();
    const later = replay({ engine: replayed(to), ...retired.forEngine(replayed(to)), fleet, operator: true, previous: after });
    expect(
      notConverged(later).filter((u) => !/verify/.test(u)),
      later.log.join('\n'),
    ).toEqual([]);
    expect(node().metadata.annotations?.[GATEWAY], JSON.stringify(node().metadata.managedFields)).toBeUndefined();
    // a whole hand-over and a later change, replayed on four clusters: longer than vitest's default on a loaded machine
  }, 120_000);
});
