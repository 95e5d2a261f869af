import { beforeAll, describe, expect, test } from 'vitest';
import { ENGINE_VERSIONS } from '../../src/delivery/registry';
import { applicationHealth } from './engines/argocd';
import { editObjects, withSpec } from './edit-output';
import { ARGOCD_VERSIONS, FLUX_VERSIONS, NEWEST_ARGOCD, NEWEST_FLUX, OLDEST_ARGOCD, OLDEST_FLUX, type FluxVersion } from './engines/engine-versions';
import { annotation, type Obj } from './kubernetes/kube';
import { envsubst } from './engines/post-build';
import { replay, type ReplayResult } from './replay';
import type { Revision } from './engines/revision';
import { compileDefinition, fleetFor, readDefinition, withBothEngines, type Compiled } from './scenario';
import { deployApplications } from './antrea/verification';
import { soakRows } from '../helpers/soak';

/**
 * What the replay models per engine version (engine-versions.ts), each difference shown by two
 * versions that give different results for the engine's reason. RollingSync's step rule (3.2 vs
 * 3.3) is rolling-sync.test.ts and verification.test.ts.
 */
test('the replay runs as every supported version (src/delivery/registry.ts ENGINE_VERSIONS), and Argo CD 3.2 and 3.3 for the record', () => {
  expect(ARGOCD_VERSIONS.filter((v) => v !== '3.2' && v !== '3.3')).toEqual(ENGINE_VERSIONS.argocd.map((v) => v.version));
  expect([...FLUX_VERSIONS]).toEqual(ENGINE_VERSIONS.flux.map((v) => v.version));
  expect([OLDEST_ARGOCD, NEWEST_ARGOCD, OLDEST_FLUX, NEWEST_FLUX]).toEqual(['3.4', '3.6', '2.8', '2.10']);
});

const definition = withBothEngines(readDefinition('test/fixtures/verify/definition.yaml'));
let compiled: Compiled;
beforeAll(async () => {
  compiled = await compileDefinition(definition);
});

async function installed() {
  const fleet = await fleetFor(definition, compiled, { appNamespaces: true });
  deployApplications(compiled.definition)(fleet);
  return fleet;
}

describe('Argo CD: an Application with a missing resource (controller/health.go setApplicationHealth, upgrading/3.3-3.4.md)', () => {
  /** the Application that applies the leader's ClusterSet */
  const unitOf = (r: ReplayResult): string =>
    Object.keys(r.units).find((u) => r.units[u]!.cluster === 'north' && r.units[u]!.objects.some((o) => o.kind === 'ClusterSet'))!;
  /** a person deletes one object of a converged unit; its health at that moment (before self-heal syncs it back) */
  async function healthAfterDeleting(version: '3.3' | '3.4' | '3.6', pick: (o: Obj) => boolean) {
    const fleet = await installed();
    let seen: string | undefined;
    let deleted: Obj | undefined;
    replay({
      engine: 'argocd',
      ...compiled.forEngine('argocd'),
      fleet,
      operator: true,
      argocdVersion: version,
      events: [
        {
          at: 'quiet',
          run: (f, now) => {
            const r = now();
            const unit = unitOf(r);
            deleted = r.units[unit]!.objects.find(pick)!;
            f.cluster(r.units[unit]!.cluster!).delete(deleted);
            seen = now().argocd[unit]!.health.status;
            return `deleted ${deleted.kind}/${deleted.metadata.name}`;
          },
        },
      ],
      maxSteps: 40,
    });
    return { seen, kind: deleted?.kind };
  }

  // the rule changed at 3.4 (health.go): npm test replays each side of it once, 3.4 standing for the
  // later versions; the soak tier (test/helpers/soak.ts) every row
  test.each(
    soakRows(
      [
        ['3.3', 'Missing'],
        ['3.4', 'Healthy'],
        ['3.6', 'Healthy'],
      ] as const,
      ([version]) => version !== '3.6',
    ),
  )('%s: a missing ClusterSet (a kind with an argocd-cm health check) makes the Application %s', async (version, status) => {
    const r = await healthAfterDeleting(version, (o) => o.kind === 'ClusterSet');
    expect(r).toEqual({ seen: status, kind: 'ClusterSet' });
  });

  // the same under either rule: npm test replays the newest (3.3's rule is the row above), the soak tier both
  test.each(soakRows(['3.3', '3.6'] as const, (version) => version === '3.6'))(
    '%s: a missing ConfigMap (no health check) leaves it Healthy',
    async (version) => {
      const r = await healthAfterDeleting(version, (o) => o.kind === 'ConfigMap' || o.kind === 'Secret' || o.kind === 'ServiceAccount');
      expect(r.seen).toBe('Healthy');
    },
  );

  test('before its first sync: 3.3 counts only the kinds with a health check, 3.4+ calls it Missing whatever they are', async () => {
    const fleet = await installed();
    const r = replay({ engine: 'argocd', ...compiled.forEngine('argocd'), fleet, operator: true, maxSteps: 0 });
    const unit = r.units[unitOf(r)]!;
    const c = fleet.cluster(unit.cluster!);
    const noCheck = unit.objects.filter((o) => o.kind === 'ServiceAccount' || o.kind === 'ConfigMap' || o.kind === 'Secret');
    expect(noCheck.length).toBeGreaterThan(0);
    for (const o of noCheck) if (c.getLike(o)) c.delete(o);
    expect(applicationHealth(c, noCheck, r.argocdSettings, '3.3').status).toBe('Healthy');
    expect(applicationHealth(c, noCheck, r.argocdSettings, '3.4').status).toBe('Missing');
  });
});

describe('Flux: a Kustomization of the user’s that wraps a bundle with postBuild (fluxcd/pkg kustomize_varsub.go, StrictPostBuildSubstitutions)', () => {
  /** the user's wrapper: every Kustomization of the Flux folder substitutes a variable of theirs */
  const wrapped = (revision: Revision): Revision =>
    editObjects(revision, (o) =>
      o.kind === 'Kustomization' && o.apiVersion.startsWith('kustomize.toolkit.fluxcd.io/') ? withSpec(o, { postBuild: { substitute: { region: 'eu' } } }) : o,
    );
  const withoutOptOut = (revision: Revision): Revision =>
    editObjects(revision, (o) => {
      if (annotation(o, 'kustomize.toolkit.fluxcd.io/substitute') !== undefined) delete o.metadata.annotations!['kustomize.toolkit.fluxcd.io/substitute'];
      return o;
    });
  async function run(version: FluxVersion, edit: (r: Revision) => Revision) {
    const fleet = await installed();
    const { revision, folder } = compiled.forEngine('flux');
    const r = replay({ engine: 'flux', revision: edit(wrapped(revision)), folder, fleet, operator: true, fluxVersion: version });
    // the verification scripts hold shell `${…}`: what the clusters hold of them
    const scripts = Object.values(r.units)
      .flatMap((u) => u.objects.filter((o) => o.kind === 'ConfigMap' && JSON.stringify(o.data).includes('${')).map((o) => ({ o, c: u.cluster! })))
      .map(({ o, c }) => ({ want: o.data, live: fleet.cluster(c).getLike(o)?.data }));
    return { r, scripts };
  }

  // npm test replays the opt-out at 2.10, whose strict substitution fails a build on any variable
  // left (2.8 would blank it silently, which the test below shows): the soak tier (test/helpers/soak.ts) both
  test.each(soakRows(['2.8', '2.10'] as const, (version) => version === '2.10'))(
    '%s: the bundles’ opt-out leaves the scripts as they are, and everything converges',
    async (version) => {
      const { r, scripts } = await run(version, (x) => x);
      expect(scripts.length).toBeGreaterThan(0);
      for (const s of scripts) expect(s.live).toEqual(s.want);
      expect(
        Object.entries(r.flux).filter(([, f]) => f.state !== 'Ready'),
        r.log.join('\n'),
      ).toEqual([]);
    },
  );

  test('mutation: without `substitute: disabled`, 2.8 blanks the scripts’ variables silently and 2.10 fails the build (strict)', async () => {
    const old = await run('2.8', withoutOptOut);
    expect(
      old.scripts.some((s) => s.live !== undefined && JSON.stringify(s.live) !== JSON.stringify(s.want)),
      old.r.log.join('\n'),
    ).toBe(true);
    const strict = await run('2.10', withoutOptOut);
    const failed = Object.values(strict.r.flux).filter((f) => f.state === 'Failed');
    expect(failed.length).toBeGreaterThan(0);
    expect(failed[0]!.message).toMatch(/^post build failed for 'v1, Kind=ConfigMap\/.*variable not set \(strict mode\)/);
    for (const s of strict.scripts) if (s.live !== undefined) expect(s.live).toEqual(s.want);
  });
});

test.each([
  // [text, vars, strict, result]
  ['a ${x} b', { x: '1' }, true, 'a 1 b'],
  ['${x:-d} ${y:=e} ${z-f}', {}, true, 'd e f'],
  ['${x:-d}', { x: 'v' }, true, 'v'],
  ['$${x} $x $(cmd)', {}, true, '${x} $x $(cmd)'],
  ['${#x}', { x: 'abc' }, false, '3'],
  ['[${x}] ${x#*|}', {}, false, '[] '],
] as const)('envsubst %j with %j (strict: %s) gives %j', (text, vars, strict, out) => {
  expect(envsubst(text, new Map(Object.entries(vars)), strict)).toBe(out);
});

test.each([
  ['${x}', 'variable not set (strict mode): "x"'],
  ['${x#*|}', 'variable not set (strict mode): "x"'],
  ['${x', 'missing closing brace'],
])('envsubst %j in strict mode without vars: %s', (text, error) => {
  expect(() => envsubst(text, new Map(), true)).toThrow(error);
});
