import { beforeAll, describe, expect, test } from 'vitest';
import { VERIFY_IMAGE } from '../../src/model/clusterset';
import { editObjects } from './edit-output';
import { fieldsOf } from './kubernetes/kube';
import { kustomizationsIn } from './engines/flux';
import { replay } from './replay';
import type { ArgoCdVersion } from './engines/engine-versions';
import type { Revision } from './engines/revision';
import { compileDefinition, fleetFor, readDefinition, withBothEngines, type Compiled, type DefinitionData } from './scenario';
import { soakRows } from '../helpers/soak';
import { deployApplications, verificationReports } from './antrea/verification';
import { REPLAYED_ENGINES } from './engines/replayed-engines';
import type { EngineKey } from '../../src/delivery/engine';

/**
 * The verification never gates delivery (docs/verify.md): in Flux it is a unit of its own,
 * `<clusterset>-<clusterID>-verify`, after the cluster's last layer, that nothing depends on. A
 * verification that fails (an image nobody can pull, a member that never connects) leaves every
 * layer Ready, and with a hub Flux the members of a dual-role leader still start.
 */

/** A dual-role leader `hub` whose Flux is the hub: it applies the members' bundles through their kubeconfigs. */
const HUB = withBothEngines(readDefinition('test/fixtures/compile/delivery-hub/definition.yaml'));
const LAYERS = ['0-namespaces-crds', '1-rbac-config', '2-webhooks', '3-workloads', '4-resources'];

/** Every verification script replaced by `exit 1`: each Job fails, whatever it would have checked. */
const failingScripts = (r: Revision): Revision =>
  editObjects(r, (o) => (o.kind === 'ConfigMap' && fieldsOf(o.data)['verify.sh'] ? { ...o, data: { 'verify.sh': 'exit 1\n' } } : o));

describe('a verification that fails or never starts holds no layer and no other cluster (Flux, hub)', () => {
  let compiled: Compiled;
  beforeAll(async () => {
    compiled = await compileDefinition(HUB);
  });

  test.each([
    ['fails', 'fails', 'Failed'],
    ['never starts (an image nobody can pull)', 'unpullable', 'NotReady'],
  ])('a verification that %s: every layer of every cluster is Ready; only each member’s verify unit is not', async (_, how, state) => {
    const fleet = await fleetFor(HUB, compiled, { appNamespaces: true });
    if (how === 'unpullable') fleet.unpullable.add(VERIFY_IMAGE);
    const { revision, folder } = compiled.forEngine('flux');
    const r = replay({ engine: 'flux', revision: how === 'fails' ? failingScripts(revision) : revision, folder, fleet, operator: true });
    // a wait that times out and is retried alternates between Failed and Progressing: not Ready
    const states = Object.fromEntries(Object.entries(r.flux).map(([name, s]) => [name, state === 'NotReady' && s.state !== 'Ready' ? 'NotReady' : s.state]));
    const expected: Record<string, string> = {};
    for (const id of ['hub', 'edge-1', 'edge-2']) {
      for (const layer of LAYERS) expected[`delivery-hub-${id}-${layer}`] = 'Ready';
      expected[`delivery-hub-${id}-verify`] = state;
    }
    expect(states, r.log.join('\n')).toEqual(expected);
    // the verify unit waits for the cluster's last layer, and nothing waits for it
    for (const [name, unit] of Object.entries(r.units)) {
      const kinds = new Set(unit.objects.map((o) => o.kind));
      // (no Service in this definition: no ClusterRole for the applications' Namespaces)
      if (name.endsWith('-verify')) expect([...kinds].sort()).toEqual(['ConfigMap', 'Job', 'Role', 'RoleBinding', 'ServiceAccount']);
      else expect(kinds.has('Job')).toBe(false);
    }
    const ks = kustomizationsIn(revision, folder);
    for (const k of ks) {
      if (k.name.endsWith('-verify')) expect(k.dependsOn).toEqual([k.name.replace(/-verify$/, '-4-resources')]);
      expect(k.dependsOn.filter((d) => d.endsWith('-verify'))).toEqual([]);
    }
  });
});

/**
 * The verification as the engines live it, with the Job's outcome following the live state
 * (verification.ts): the same checks as the Job's script, over the objects Antrea's modelled
 * controllers write. Per definition: the member whose failures we replay (it exports no Service
 * that only it exports). Its ClusterInfo only it exports (#51): a member with no Gateway, or that
 * never connects, leaves every other member without a path to it, which their verification says
 * (`clusterinfo-imported`), while a dual-role leader's checks no member's.
 */
const TABLE: [string, DefinitionData, string][] = [
  ['verify fixture (dual-role leader north, Gateways, two Services)', readDefinition('test/fixtures/verify/definition.yaml'), 'west'],
  ['test-clusterset (dedicated leader, hub Flux)', readDefinition('clustersets/test-clusterset.yaml'), 'test-cluster-east'],
  ['delivery-hub (dual-role leader, hub Flux, no Service)', readDefinition('test/fixtures/compile/delivery-hub/definition.yaml'), 'edge-2'],
];

const memberIDs = (d: DefinitionData) => d.spec.clusters.filter((c) => c.member !== false).map((c) => c.clusterID);
/** What another member's verification says of `broken` when it has no Gateway: it imported no ClusterInfo of it (none for the leader, which waits for no member). */
const pathLostTo = (d: DefinitionData, id: string, broken: string): string[] =>
  id === (d.spec.leader as { clusterID: string }).clusterID
    ? []
    : [`FAIL clusterinfo-imported: ClusterInfo of ${broken} is not imported (no ClusterInfoImport ${broken}-clusterinfo)`];
const failures = (reports: ReadonlyMap<string, string[]>, id: string): string[] =>
  [...reports].find(([k]) => k.startsWith(`${id}/`))?.[1].filter((l) => l.startsWith('FAIL')) ?? [];
const at = (log: readonly string[], re: RegExp): number => log.findIndex((l) => re.test(l));
const esc = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * npm test runs each of the three behaviours below through one engine per definition, the two in
 * turn (so each behaviour meets both engines across the first two rows); the soak tier
 * (test/helpers/soak.ts) through both, and every row. npm test leaves delivery-hub's row to the soak
 * tier: the verify fixture stands for a dual-role leader (its leader checks no member's path,
 * `pathLostTo`), test-clusterset for a hub Flux, and delivery-hub's own install through its hub,
 * with every verification failing or never starting, is the first describe above.
 */
const ENGINES = REPLAYED_ENGINES;
const enginesFor = (row: number, behaviour: number) => soakRows(ENGINES, (_, i) => i === (row + behaviour) % ENGINES.length);
const ROWS = soakRows(
  TABLE.map((row, index) => [...row, index] as const),
  ([name]) => !name.startsWith('delivery-hub'),
);

describe.each(ROWS)('%s', (_, data, broken, row) => {
  const definition = withBothEngines(data);
  let compiled: Compiled;
  beforeAll(async () => {
    compiled = await compileDefinition(definition);
  });
  const name = definition.metadata.name;

  async function run(engine: EngineKey, options: { withoutToken?: string; nodeDown?: readonly string[] } = {}) {
    const c = compiled;
    const fleet = await fleetFor(definition, c, { appNamespaces: true });
    deployApplications(c.definition)(fleet);
    if (options.withoutToken) {
      // the operator copies every member's token but this one's (docs/delivery.md's manual step, skipped)
      const copy = fleet.copyManualTokens.bind(fleet);
      fleet.copyManualTokens = () => copy().filter((m) => !m.startsWith(`${String(options.withoutToken)}:`));
      const cluster = fleet.cluster(options.withoutToken);
      const put = cluster.put.bind(cluster);
      cluster.put = (o) => (o.kind === 'Secret' && o.type === 'Opaque' && /token/.test(o.metadata.name) ? o : put(o));
    }
    if (options.nodeDown) {
      // kubelet stops reporting: the Node is NotReady (pods already on it keep running in this model)
      const nodeReady = fleet.nodeReady.bind(fleet);
      fleet.nodeReady = (cluster, node) => !options.nodeDown!.includes(node) && nodeReady(cluster, node);
    }
    const r = replay({ engine, ...c.forEngine(engine), fleet, operator: true });
    return { r, reports: verificationReports(fleet) };
  }

  test.each(enginesFor(row, 0))('%s: every member’s verification runs last, after its layers are healthy, and is what turns it green', async (engine) => {
    const { r } = await run(engine);
    const log = r.log;
    for (const id of memberIDs(definition)) {
      const passed = at(log, new RegExp(`^\\[${esc(id)}\\] Job \\S+/antrea-clusterset-verify-[0-9a-f]{10} Complete`));
      expect(passed, `${id}\n${log.join('\n')}`).toBeGreaterThan(-1);
      if (engine === 'flux') {
        const unit = `${name}-${id}`;
        const lastLayer = at(log, new RegExp(`^\\[flux\\] ${esc(unit)}-4-resources: Ready`));
        const verifyStarts = at(log, new RegExp(`^\\[flux\\] ${esc(unit)}-verify: Progressing`));
        const green = at(log, new RegExp(`^\\[flux\\] ${esc(unit)}-verify: Ready`));
        expect([lastLayer < verifyStarts, verifyStarts < passed, passed < green], id).toEqual([true, true, true]);
        expect(r.flux[`${unit}-verify`]?.state).toBe('Ready');
      } else {
        // its own Application (#38): the Job waits for the ClusterSet's connection, which the
        // bundle's last wave brings; no sync of the bundle waits for the Job
        const app = `${name}-${id}`;
        const lastSyncWave = log.map((l, i) => (new RegExp(`^\\[argocd\\] ${esc(app)}: Sync wave`).test(l) ? i : -1)).reduce((a, b) => Math.max(a, b), -1);
        const bundleSynced = at(log, new RegExp(`^\\[argocd\\] ${esc(app)}: sync Succeeded`));
        expect([lastSyncWave < passed, bundleSynced < passed], id).toEqual([true, true]);
        expect(r.argocd[app]).toMatchObject({ operation: 'Succeeded', synced: true, health: { status: 'Healthy' } });
        expect(r.argocd[`${app}-verify`]).toMatchObject({ operation: 'Succeeded', synced: true, health: { status: 'Healthy' } });
      }
    }
  });

  /**
   * Neither engine holds anything on a NotReady Node: Argo CD has no health rule for a Node, and
   * Flux's kstatus, which reads a Node's `Ready` condition (cli-utils status.go
   * checkReadyCondition), is given a rule that takes a Node as it is (delivery/flux/health-checks.ts), so
   * the member's `4-resources`, which applies the Gateway Node's annotations with `wait`, is Ready
   * and its verification runs and says why.
   */
  test.each(enginesFor(row, 1))(
    '%s: a member whose Gateway Node is NotReady (its kubelet is down): every layer healthy, its verification Failed and saying why, the others saying they have no path to it',
    async (engine) => {
      const gateways = definition.spec.clusters.find((c) => c.clusterID === broken)!.gateways!.map((g) => g.node);
      const { r, reports } = await run(engine, { nodeDown: gateways });
      const failed = [...reports].find(([k]) => k.startsWith(`${broken}/`))?.[1];
      expect(failed, r.log.filter((l) => l.includes(broken)).join('\n')).toContain(`FAIL gateway-elected: no Gateway elected among ${gateways.join(', ')}`);
      for (const id of memberIDs(definition)) {
        const fails = id === broken || pathLostTo(definition, id, broken).length > 0;
        if (id !== broken) expect(failures(reports, id), id).toEqual(pathLostTo(definition, id, broken));
        if (engine === 'flux') {
          for (const layer of LAYERS) expect(r.flux[`${name}-${id}-${layer}`]?.state, `${id} ${layer}`).toBe('Ready');
          expect(r.flux[`${name}-${id}-verify`]?.state, id).toBe(fails ? 'Failed' : 'Ready');
        } else {
          // the bundle is synced and healthy everywhere; a failed Job shows on its own Application
          const a = r.argocd[`${name}-${id}`]!;
          expect([a.operation, a.health.status], id).toEqual(['Succeeded', 'Healthy']);
          expect(r.argocd[`${name}-${id}-verify`]!.health.status, id).toBe(fails ? 'Degraded' : 'Healthy');
        }
      }
    },
  );

  test.each(enginesFor(row, 2))(
    '%s: a member that never connects (its token never copied) shows its ClusterSet Progressing and its verification never starts; the others are delivered and say they have no path to it',
    async (engine) => {
      const { r, reports } = await run(engine, { withoutToken: broken });
      expect(r.log.some((l) => l.startsWith(`[${broken}] Job`) && l.includes('antrea-clusterset-verify-'))).toBe(false);
      for (const id of memberIDs(definition)) {
        const lost = id !== broken && pathLostTo(definition, id, broken).length > 0;
        if (id !== broken) {
          expect(failures(reports, id), id).toEqual(pathLostTo(definition, id, broken));
          expect(
            r.log.some((l) => l.startsWith(`[${id}] Job`) && l.includes('antrea-clusterset-verify-') && l.includes(lost ? 'Failed' : 'Complete')),
            id,
          ).toBe(true);
        }
        if (engine === 'flux') {
          // (the health check's timeout and the retry at the interval alternate: never Ready)
          if (id === broken) expect(r.flux[`${name}-${id}-4-resources`]?.state, id).not.toBe('Ready');
          else expect(r.flux[`${name}-${id}-4-resources`]?.state, id).toBe('Ready');
          expect(r.flux[`${name}-${id}-verify`]?.state, id).toBe(id === broken ? 'Pending' : lost ? 'Failed' : 'Ready');
        } else {
          // the sync ends with the last layer and holds no later commit (#38); the Job waits for the connection
          const a = r.argocd[`${name}-${id}`]!;
          expect([a.operation, a.health.status], id).toEqual(['Succeeded', id === broken ? 'Progressing' : 'Healthy']);
          expect(r.argocd[`${name}-${id}-verify`]!.health.status, id).toBe(id === broken ? 'Progressing' : lost ? 'Degraded' : 'Healthy');
        }
      }
    },
  );
});

/**
 * A dual-role leader's verification is an Application of its own in Argo CD (#38), outside
 * RollingSync: the members' step waits for the leader's bundle, under both the v3.2 rule (Healthy,
 * not OutOfSync, last operation Succeeded: applicationset_controller.go appSyncEnabledForNextStep)
 * and the v3.3+ one (Healthy and Synced: progressivesync UpdateApplicationSetApplicationStatus),
 * never for its verification. Flux holds nothing on it either.
 */
describe('a dual-role leader whose verification fails (its Gateway Node is NotReady)', () => {
  const definition = withBothEngines(readDefinition('test/fixtures/verify/definition.yaml'));
  let compiled: Compiled;
  beforeAll(async () => {
    compiled = await compileDefinition(definition);
  });
  async function run(engine: EngineKey, argocdVersion?: ArgoCdVersion) {
    const fleet = await fleetFor(definition, compiled, { appNamespaces: true });
    deployApplications(compiled.definition)(fleet);
    const nodeReady = fleet.nodeReady.bind(fleet);
    fleet.nodeReady = (cluster, node) => node !== 'north-node-1' && nodeReady(cluster, node);
    const r = replay({ engine, ...compiled.forEngine(engine), fleet, operator: true, argocdVersion });
    return Object.assign(r, { reports: verificationReports(fleet) });
  }

  // npm test under the 3.3 rule, the one of every supported version (3.4+: engine-versions.ts); the
  // v3.2 rule, on record only, in the soak tier (test/helpers/soak.ts). Either rule reads the
  // leader's bundle Application alone, which a verification inside it would make Degraded
  test.each(soakRows(['3.2', '3.3'] as const, (version) => version === '3.3'))(
    'argocd (ApplicationSet, RollingSync as v%s runs it): the leader’s verification fails on its own; the members’ step starts',
    async (version) => {
      const r = await run('argocd', version);
      expect(r.argocd['verify-clusterset-north']).toMatchObject({ operation: 'Succeeded', health: { status: 'Healthy' } });
      expect(r.argocd['verify-clusterset-north-verify']!.health.status).toBe('Degraded');
      expect([r.argocd['verify-clusterset-east']!.operation, r.argocd['verify-clusterset-west']!.operation]).toEqual(['Succeeded', 'Succeeded']);
    },
  );

  test('flux (one Flux per cluster): the leader’s verify unit fails (its last layer takes the Node as it is); the members install, and their verification says they have no path to the leader’s member side', async () => {
    const r = await run('flux');
    expect(r.flux['verify-clusterset-north-4-resources']?.state).toBe('Ready');
    expect(r.flux['verify-clusterset-north-verify']?.state).toBe('Failed');
    for (const id of ['east', 'west']) {
      for (const layer of LAYERS) expect(r.flux[`verify-clusterset-${id}-${layer}`]?.state, `${id} ${layer}`).toBe('Ready');
      expect(r.flux[`verify-clusterset-${id}-verify`]?.state, id).toBe('Failed');
      expect(failures(r.reports, id), id).toEqual(pathLostTo(definition, id, 'north'));
    }
  });
});
