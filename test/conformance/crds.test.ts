import { describe, expect, test } from 'vitest';
import { crdManifest, crdName, type CrdModel } from '../../src/antrea/crd';
import { RELEASES } from '../../src/antrea/releases';
import { diffPaths, formatDifferences } from './diff-paths';
import { isCrdPiece, referenceDir, upstreamDocuments } from './reference';

type Obj = Record<string, unknown>;

/** The CRDs of an upstream file, read as YAML 1.1 as the API server reads them, parsed once per worker (reference.ts). */
function upstreamCrds(dir: string, file: string): Obj[] {
  return upstreamDocuments(dir, file, { keep: isCrdPiece }).filter((o): o is Obj => (o as Obj | null)?.kind === 'CustomResourceDefinition');
}

/** Drops prose: every `description` whose value is a string (a schema property named `description` is an object). */
function withoutDescriptions(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(withoutDescriptions);
  if (v && typeof v === 'object') {
    return Object.fromEntries(
      Object.entries(v)
        .filter(([k, x]) => !(k === 'description' && typeof x === 'string'))
        .map(([k, x]) => [k, withoutDescriptions(x)]),
    );
  }
  return v;
}

const nameOf = (o: Obj): string => (o.metadata as Obj).name as string;
const sorted = (xs: Iterable<string>): string[] => [...xs].sort();

describe.each(RELEASES.map((r) => [r.version, r] as const))('Antrea %s CRDs equal upstream (descriptions aside)', (_, release) => {
  const { dir, have } = referenceDir(release, 'crd');
  const load = (file: string) => (have ? upstreamCrds(dir, file) : []);
  const core = load('antrea-crds.yml');
  const leader = load('antrea-multicluster-leader-global.yml');
  const member = load('antrea-multicluster-member.yml');
  // `clustersets` ships in both multi-cluster files, identically; compare it once
  const multicluster = [...new Map([...leader, ...member].map((o) => [nameOf(o), o])).values()];
  const { core: coreCrds, leader: leaderCrds, member: memberCrds } = release.crds;

  const ours = new Map<string, CrdModel>([...coreCrds, ...leaderCrds, ...memberCrds].map((m) => [crdName(m), m]));

  function expectConformant(upstream: Obj): void {
    const name = nameOf(upstream);
    const model = ours.get(name);
    expect(model, `no model for ${name}`).toBeDefined();
    const diffs = diffPaths(withoutDescriptions(crdManifest(model!)), withoutDescriptions(upstream));
    expect(diffs, `${name} differs from upstream at:\n${formatDifferences(diffs)}`).toEqual([]);
  }

  describe.skipIf(!have)('against the reference manifests', () => {
    test('upstream files hold AntreaNodeConfig exactly where the release says so, and 9 distinct multi-cluster CRDs', () => {
      expect(core.map(nameOf).includes('antreanodeconfigs.crd.antrea.io')).toBe(release.facts.antreaNodeConfig);
      expect(multicluster).toHaveLength(9);
    });

    test('our CRD names are exactly upstream names', () => {
      expect(sorted(ours.keys())).toEqual(sorted([...core, ...multicluster].map(nameOf)));
      expect(coreCrds.length + leaderCrds.length + memberCrds.length - ours.size).toBe(
        // the one CRD both multi-cluster manifests ship
        leader.length + member.length - multicluster.length,
      );
    });

    test.each([
      ['core', coreCrds, core],
      ['leader', leaderCrds, leader],
      ['member', memberCrds, member],
    ] as const)('%s set matches its upstream manifest', (_, models, upstream) => {
      expect(sorted(models.map(crdName))).toEqual(sorted(upstream.map(nameOf)));
    });

    test('core CRDs are registered sorted by name', () => {
      const names = coreCrds.map(crdName);
      expect(names).toEqual(sorted(names));
    });

    describe('core', () => {
      test.each(core.map((o) => [nameOf(o), o] as const))('%s', (_, upstream) => expectConformant(upstream));
    });

    describe('multicluster', () => {
      test.each(multicluster.map((o) => [nameOf(o), o] as const))('%s', (_, upstream) => expectConformant(upstream));
    });
  });
});
