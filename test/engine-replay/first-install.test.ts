import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import prod from '../../examples/construct/prod';
import { SUPPORTED_ANTREA_VERSIONS } from '../../src/antrea/releases';
import { ARGO_HEALTH_REVIEWED, argoHealth, DOCUMENTED_ARGO_HEALTH } from './health';
import { groupOf, refOf, type Obj } from './kube';
import { awaitsItsServices, replay, type ReplayResult } from './replay';
import { Fleet } from './controllers';
import { deployApplications, withVerification } from './verification';
import { ApiServer } from './api-server';
import { compileDefinition, createNamespaces, fleetFor, readDefinition, withBothEngines, type Compiled, type DefinitionData } from './scenario';

/** Clusters with nothing in them: enough to list the units a revision holds. */
const emptyFleetFor = (d: DefinitionData) => new Fleet(d.spec.clusters.map((c) => new ApiServer({ clusterID: c.clusterID, nodes: [], cni: 'other' })));

/**
 * A first install of every example, at every release, through each engine, on clusters as they
 * come: kubeadm clusters with no CNI, managed clouds whose Nodes are Ready before Antrea,
 * members whose Antrea comes from its Helm chart; with the applications' Namespaces already there
 * and not yet there. Every cluster must reach the definition's state, and the ClusterSet must be
 * applied and healthy whatever the applications' state.
 */

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

/** Where the fleet stands against the revision; `exportsMayWait`: a unit holding ServiceExports may still wait for their Namespaces. */
function verdict(r: ReplayResult, exportsMayWait: boolean): Verdict {
  const stuck: string[] = [];
  const missing: string[] = [];
  const clusterSets: string[] = [];
  for (const [name, unit] of Object.entries(r.units)) {
    const cluster = r.fleet.cluster(unit.cluster);
    const waits = exportsMayWait && holdsExports(unit.objects);
    if (!waits) {
      const a = r.argocd[name];
      if (a && (a.operation !== 'Succeeded' || !a.synced || a.health.status !== 'Healthy'))
        stuck.push(`${name}: ${a.operation} ${a.message}; health ${a.health.status} ${a.health.message ?? ''}`);
      const f = r.flux[name];
      if (f && f.state !== 'Ready' && !awaitsItsServices(r, name)) stuck.push(`${name}: ${f.state} ${f.message}`);
    }
    for (const o of unit.objects) {
      const live = cluster.getLike(o);
      if (!live) {
        if (!(waits && o.kind === 'ServiceExport')) missing.push(`${unit.cluster} ${refOf(o)}`);
        continue;
      }
      if (o.kind === 'ClusterSet' && argoHealth(live, DOCUMENTED_ARGO_HEALTH)?.status !== 'Healthy')
        clusterSets.push(`${unit.cluster} ${refOf(o)}: ${JSON.stringify(live.status)}`);
    }
    for (const o of unit.objects) if (o.kind === 'ClusterSet' && !cluster.getLike(o)) clusterSets.push(`${unit.cluster} ${refOf(o)} not applied`);
  }
  // the first objects are enough to see what stopped
  return { stuck, clusterSets, missing: missing.length > 12 ? [...missing.slice(0, 12), `… and ${missing.length - 12} more`] : missing };
}

const CONVERGED: Verdict = { stuck: [], clusterSets: [], missing: [] };

describe.each(EXAMPLES)('%s', (_, example) => {
  describe.each(SUPPORTED_ANTREA_VERSIONS)('Antrea %s', (version) => {
    const definition = withBothEngines(atRelease(example, version));
    let compiled: Compiled;
    beforeAll(async () => {
      compiled = await compileDefinition(definition);
    });

    test.each(['argocd', 'flux'] as const)(
      '%s: a first install converges with the applications in place, and every member’s verification passes',
      async (engine) => {
        const fleet = await fleetFor(definition, compiled, { appNamespaces: true });
        // the verification Job judges the live objects, as its script does (verification.ts)
        const model = withVerification(fleet, compiled.definition);
        deployApplications(compiled.definition)(fleet);
        const r = replay({ engine, ...compiled.forEngine(engine), fleet, operator: true });
        expect(
          [...model.reports.values()].flat().filter((l) => !l.startsWith('PASS')),
          r.log.join('\n'),
        ).toEqual([]);
        const verified = new Set([...model.reports.keys()].map((k) => k.split('/')[0]));
        const members = compiled.definition.spec.verify.job ? definition.spec.clusters.filter((c) => c.member !== false).length : 0;
        expect(verified.size).toBe(members);
        expect(verdict(r, false), r.log.join('\n')).toEqual(CONVERGED);
        expect(fleet.fabricatedNodes()).toEqual([]);
      },
    );

    test.each(['argocd', 'flux'] as const)(
      '%s: without the applications’ Namespaces the ClusterSet converges, and exports follow their Namespaces',
      async (engine) => {
        const fleet = await fleetFor(definition, compiled, { appNamespaces: false });
        let before: Verdict | undefined;
        const r = replay({
          engine,
          ...compiled.forEngine(engine),
          fleet,
          operator: true,
          events: [
            {
              // the applications' own delivery creates their Namespaces once the ClusterSet has settled
              at: 'quiet',
              run: (f, now) => {
                before = verdict(now(), true);
                return createNamespaces(definition)(f);
              },
            },
          ],
        });
        expect(before, r.log.join('\n')).toEqual(CONVERGED);
        expect(verdict(r, false), r.log.join('\n')).toEqual(CONVERGED);
      },
    );

    test('every kind the engines apply has been held to Argo CD’s health rules (gitops-engine pkg/health, argo-cd resource_customizations)', () => {
      const kinds = new Set<string>();
      for (const engine of ['argocd', 'flux'] as const) {
        const { revision, folder } = compiled.forEngine(engine);
        const units = replay({ engine, revision, folder, fleet: emptyFleetFor(definition), maxSteps: 0 }).units;
        for (const u of Object.values(units)) for (const o of u.objects) kinds.add(`${groupOf(o.apiVersion)}/${o.kind}`);
      }
      expect([...kinds].filter((k) => !ARGO_HEALTH_REVIEWED.includes(k))).toEqual([]);
    });

    // at the definition's own release: the plain Applications differ from the ApplicationSet only in how they are ordered
    if (version === example.spec.antrea.version)
      test('argocd without progressive syncs (argocd/applications/ from an app-of-apps): converges, the Namespaces coming later', async () => {
        const fleet = await fleetFor(definition, compiled, { appNamespaces: false });
        const r = replay({
          engine: 'argocd',
          argocdMode: 'applications',
          ...compiled.forEngine('argocd'),
          fleet,
          operator: true,
          events: [{ at: 'quiet', run: createNamespaces(definition) }],
        });
        expect(verdict(r, false), r.log.join('\n')).toEqual(CONVERGED);
      });
  });
});
