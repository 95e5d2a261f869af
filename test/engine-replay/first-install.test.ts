import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import prod from '../../examples/construct/prod';
import { SUPPORTED_ANTREA_VERSIONS } from '../../src/antrea/releases';
import { SOAK } from '../helpers/soak';
import { argoHealth, hasArgoHealthRule, NO_HEALTH_REVIEWED } from './engines/argocd-health';
import { kstatus } from './engines/kstatus';
import { groupOf, refOf, type Obj } from './kubernetes/kube';
import { awaitsItsServices, replay, type ReplayResult } from './replay';
import { Fleet } from './antrea/controllers';
import { OLDEST_ARGOCD, NEWEST_FLUX, versionsToReplay } from './engines/engine-versions';
import { deployApplications, verificationReports } from './antrea/verification';
import { ApiServer } from './kubernetes/api-server';
import {
  compileDefinition,
  createNamespaces,
  fleetFor,
  readDefinition,
  registerDelivery,
  withBothEngines,
  type Compiled,
  type DefinitionData,
} from './scenario';
import { REPLAYED_ENGINES } from './engines/replayed-engines';
import type { EngineKey } from '../../src/delivery/engine';

/** Clusters with nothing in them, the engines registered: enough to list the units a revision holds. */
function emptyFleetFor(d: DefinitionData, compiled: Compiled): Fleet {
  const fleet = new Fleet(d.spec.clusters.map((c) => new ApiServer({ clusterID: c.clusterID, nodes: [], cni: 'other' })));
  registerDelivery(fleet, compiled);
  return fleet;
}

/**
 * A first install of every example, at every release, through each engine, on clusters as they
 * come: kubeadm clusters with no CNI, managed clouds whose Nodes are Ready before Antrea,
 * members whose Antrea comes from its Helm chart; with the applications' Namespaces already there
 * and not yet there. Every cluster must reach the definition's state, and the ClusterSet must be
 * applied and healthy (by the engine's own rules) whatever the applications' state.
 *
 * The whole matrix (every example at every supported release, both engines, both variants) is the
 * soak tier (test/helpers/soak.ts); `npm test` replays each example at one release with the
 * applications in place: the first examples each at another supported release (so every release
 * is replayed), the others at their own; each example through the engine it names (`engineOf`),
 * and the first example in every variant through both engines (its release through Flux too: the
 * variant without the applications' Namespaces converges every unit but the verification, which
 * the other Flux rows see pass).
 */

/**
 * The engine versions: Argo CD's oldest and Flux's newest supported here, the other two in
 * planned-changes.test.ts; both of each in the soak tier.
 */
const VERSIONS = versionsToReplay({ argocdVersion: OLDEST_ARGOCD, fluxVersion: NEWEST_FLUX }, SOAK);
const ENGINES = VERSIONS.flatMap((v) => [['argocd', v.argocdVersion, v] as const, ['flux', v.fluxVersion, v] as const]);

const CLOUDS: DefinitionData = readDefinition('test/engine-replay/fixtures/clouds.yaml');
const CLOUDS_HELM: DefinitionData = readDefinition('test/engine-replay/fixtures/clouds-helm.yaml');

const EXAMPLES: [string, DefinitionData][] = [
  ...readdirSync('clustersets')
    .filter((f) => f.endsWith('.yaml'))
    .sort()
    .map((f): [string, DefinitionData] => [`clustersets/${f}`, readDefinition(join('clustersets', f))]),
  ['examples/construct/prod.ts', prod],
  ...readdirSync('test/fixtures/compile')
    .sort()
    .map((c): [string, DefinitionData] => [`fixture ${c}`, readDefinition(join('test/fixtures/compile', c, 'definition.yaml'))]),
  ['every cloud, install: full (kubeadm leader)', CLOUDS],
  ['clouds, install: multiclusterOnly (Antrea from Helm, a leader without Antrea)', CLOUDS_HELM],
];

/**
 * The one engine an example installs through in `npm test` (the soak tier takes both): the one its
 * own delivery names, or, naming both or none, the two in turn.
 */
function engineOf(example: DefinitionData, index: number): EngineKey {
  const named = REPLAYED_ENGINES.filter((e) => example.spec.delivery?.[e] !== undefined);
  return named.length === 1 ? named[0]! : REPLAYED_ENGINES[index % REPLAYED_ENGINES.length]!;
}

/**
 * Examples whose first install `npm test` leaves to the soak tier: the same path as another row,
 * named here, which stays (their health-rule test stays too). helm-clusterset is clouds-helm's
 * shape (a multiclusterOnly leader without Antrea, members whose Antrea comes from its Helm
 * chart on AKS and on kubeadm, a full member), through the same Flux at the same release; what it
 * adds, podToPodConnectivity and a member's own Namespace, dual-role-manual replays, and its own
 * output converges through Flux in compiler-update.test.ts.
 */
const INSTALLED_ELSEWHERE: Readonly<Record<string, string>> = {
  'clustersets/helm-clusterset.yaml': 'clouds, install: multiclusterOnly (Antrea from Helm, a leader without Antrea)',
  // the replay tells a cloud from kubeadm by its Nodes alone (Ready before Antrea: fleetFor), and
  // neither engine reads a cloud's Antrea settings: every-cloud's kubeadm leader with cloud members
  // through Argo CD is demo-clusterset's kubeadm leader and eks-clusterset's cloud members through
  // the same Argo CD; its mix through Flux is clouds-helm's
  'every cloud, install: full (kubeadm leader)': 'clustersets/eks-clusterset.yaml',
  // delivery-hub's first install through its hub Flux is verification.test.ts's first describe (every
  // layer of every cluster Ready, each Kustomization waiting on its objects' health); its shape's
  // verification passing (a dual-role leader, no Service) is demo-clusterset's
  'fixture delivery-hub': 'clustersets/demo-clusterset.yaml',
};
for (const kept of Object.values(INSTALLED_ELSEWHERE))
  if (!EXAMPLES.some(([name]) => name === kept && !(name in INSTALLED_ELSEWHERE))) throw new Error(`first-install: no row ${kept}`);

const atRelease = (d: DefinitionData, version: string): DefinitionData => ({ ...d, spec: { ...d.spec, antrea: { ...d.spec.antrea, version } } });

interface Verdict {
  /** units (Applications, Kustomizations) that did not converge, with why */
  readonly stuck: string[];
  /** ClusterSets not applied or not healthy */
  readonly clusterSets: string[];
  /** objects of the revision the fleet does not hold */
  readonly missing: string[];
}

const holdsExports = (objects: readonly Obj[]) => objects.some((o) => o.kind === 'ServiceExport');

/**
 * What is not there yet: `all` is there; `applications`: the applications are not delivered, so
 * the verification may fail (its unit: a Flux Kustomization, an Argo CD Application) and an
 * exports unit may wait for its Service; `namespaces`: not even
 * their Namespaces, so the ServiceExports may not be applied either.
 */
type Missing = 'all' | 'applications' | 'namespaces';

/** Where the fleet stands against the revision. */
function verdict(r: ReplayResult, absent: Missing = 'all'): Verdict {
  const stuck: string[] = [];
  const missing: string[] = [];
  const clusterSets: string[] = [];
  for (const [name, unit] of Object.entries(r.units)) {
    const cluster = unit.cluster === undefined ? undefined : r.fleet.cluster(unit.cluster);
    const waits = absent !== 'all' && (holdsExports(unit.objects) || name.endsWith('-verify'));
    if (!waits) {
      const a = r.argocd[name];
      if (a && (a.operation !== 'Succeeded' || !a.synced || a.health.status !== 'Healthy'))
        stuck.push(`${name}: ${a.operation} ${a.message}; health ${a.health.status} ${a.health.message ?? ''}`);
      const f = r.flux[name];
      if (f && f.state !== 'Ready' && !awaitsItsServices(r, name)) stuck.push(`${name}: ${f.state} ${f.message}`);
    }
    for (const o of unit.objects) {
      const live = cluster?.getLike(o);
      if (!live) {
        if (!(absent === 'namespaces' && o.kind === 'ServiceExport')) missing.push(`${unit.cluster ?? `(${name} reaches no cluster)`} ${refOf(o)}`);
        continue;
      }
      if (o.kind === 'ClusterSet' && clusterSetHealth(r, name, live) !== 'healthy')
        clusterSets.push(`${String(unit.cluster)} ${refOf(o)}: ${JSON.stringify(live.status)}`);
    }
    for (const o of unit.objects) if (o.kind === 'ClusterSet' && !cluster?.getLike(o)) clusterSets.push(`${String(unit.cluster)} ${refOf(o)} not applied`);
  }
  // the first objects are enough to see what stopped
  return { stuck, clusterSets, missing: missing.length > 12 ? [...missing.slice(0, 12), `… and ${missing.length - 12} more`] : missing };
}

const CONVERGED: Verdict = { stuck: [], clusterSets: [], missing: [] };

/** A ClusterSet's health as the engine that applied it judges it: Argo CD's argocd-cm Lua, or the unit's kstatus and CEL. */
function clusterSetHealth(r: ReplayResult, unit: string, live: Obj): 'healthy' | 'not healthy' {
  if (r.argocd[unit]) return argoHealth(live, r.argocdSettings)?.status === 'Healthy' ? 'healthy' : 'not healthy';
  const run = r.fluxRuns.get(unit);
  return run && kstatus(live, run.k.healthCheckExprs).status === 'Current' ? 'healthy' : 'not healthy';
}

describe.each(EXAMPLES.map(([name, d], i) => [name, d, i] as const))('%s', (name, example, index) => {
  const releases = SOAK ? SUPPORTED_ANTREA_VERSIONS : [SUPPORTED_ANTREA_VERSIONS[index] ?? example.spec.antrea.version];
  describe.each(releases)('Antrea %s', (version) => {
    const definition = withBothEngines(atRelease(example, version));
    let compiled: Compiled;
    beforeAll(async () => {
      compiled = await compileDefinition(definition);
    });

    if (SOAK || !(name in INSTALLED_ELSEWHERE))
      test.each(SOAK ? ENGINES : ENGINES.filter(([engine]) => engine === engineOf(example, index)))(
        '%s %s: a first install converges with the applications in place, and every member’s verification passes',
        async (engine, _version, versions) => {
          const fleet = await fleetFor(definition, compiled, { appNamespaces: true });
          deployApplications(compiled.definition)(fleet);
          const r = replay({ engine, ...compiled.forEngine(engine), fleet, operator: true, ...versions });
          // the verification Jobs ran their scripts against the clusters (job-runner.ts)
          const reports = verificationReports(fleet);
          expect(
            [...reports.values()].flat().filter((l) => !l.startsWith('PASS')),
            r.log.join('\n'),
          ).toEqual([]);
          const verified = new Set([...reports.keys()].map((k) => k.split('/')[0]));
          const members = compiled.definition.spec.verify.job ? definition.spec.clusters.filter((c) => c.member !== false).length : 0;
          expect(verified.size).toBe(members);
          expect(verdict(r), r.log.join('\n')).toEqual(CONVERGED);
          expect(fleet.fabricatedNodes()).toEqual([]);
        },
      );

    // the soak tier, and the first example (at its one release in npm test)
    const variants = SOAK || (index === 0 && version === releases[0]);
    test.skipIf(!variants).each(ENGINES)(
      '%s %s: without the applications’ Namespaces the ClusterSet converges, and exports follow their Namespaces',
      async (engine, _version, versions) => {
        const fleet = await fleetFor(definition, compiled, { appNamespaces: false });
        let before: Verdict | undefined;
        const r = replay({
          engine,
          ...compiled.forEngine(engine),
          fleet,
          operator: true,
          ...versions,
          events: [
            {
              // the applications' own delivery creates their Namespaces once the ClusterSet has settled
              at: 'quiet',
              run: (f, now) => {
                before = verdict(now(), 'namespaces');
                return createNamespaces(definition)(f);
              },
            },
          ],
        });
        expect(before, r.log.join('\n')).toEqual(CONVERGED);
        // the applications themselves never came: the verification fails on them alone, every other unit converges
        expect(verdict(r, 'applications'), r.log.join('\n')).toEqual(CONVERGED);
        expect([...verificationReports(fleet).values()].flat().filter((l) => l.startsWith('FAIL') && !l.startsWith('FAIL service-imported'))).toEqual([]);
      },
    );

    test('every kind the engines apply has been held to Argo CD’s health rules (gitops-engine pkg/health, argo-cd resource_customizations, our argocd-cm)', () => {
      const kinds = new Set<string>();
      let settings: ReplayResult['argocdSettings'] | undefined;
      for (const engine of REPLAYED_ENGINES) {
        const { revision, folder } = compiled.forEngine(engine);
        const r = replay({ engine, revision, folder, fleet: emptyFleetFor(definition, compiled), maxSteps: 0 });
        if (engine === 'argocd') settings = r.argocdSettings;
        for (const u of Object.values(r.units))
          for (const o of u.objects) kinds.add(groupOf(o.apiVersion) === '' ? o.kind : `${groupOf(o.apiVersion)}/${o.kind}`);
      }
      expect([...kinds].filter((k) => !hasArgoHealthRule(k, settings) && !NO_HEALTH_REVIEWED.includes(k))).toEqual([]);
    });

    // at the definition's own release: the plain Applications differ from the ApplicationSet only in how they are ordered
    if (variants)
      test.each(VERSIONS)(
        'argocd $argocdVersion without progressive syncs (argocd/applications/ from an app-of-apps): converges, the Namespaces coming later',
        async (versions) => {
          const fleet = await fleetFor(definition, compiled, { appNamespaces: false });
          const r = replay({
            engine: 'argocd',
            argocdMode: 'applications',
            ...compiled.forEngine('argocd'),
            fleet,
            operator: true,
            ...versions,
            events: [{ at: 'quiet', run: createNamespaces(definition) }],
          });
          expect(verdict(r, 'applications'), r.log.join('\n')).toEqual(CONVERGED);
        },
      );
  });
});
