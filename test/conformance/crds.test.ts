import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { crdManifest, crdName, type CrdModel } from '../../src/antrea/crd';
import { coreCrds, leaderCrds, memberCrds } from '../../src/antrea/v2.7.0/crds';
import { haveReference } from '../helpers/reference';
import { diffPaths, formatDifferences } from './diff-paths';

// Upstream release manifests are reference data, read at test time from the shared checkout next to the repo.
const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const refDir = resolve(repoRoot, '../shared/reference/antrea/v2.7.0');
const haveRef = haveReference('crd conformance', refDir);

type Obj = Record<string, unknown>;

function upstreamCrds(file: string): Obj[] {
  if (!haveRef) return [];
  return parseAllDocuments(readFileSync(resolve(refDir, file), 'utf8'))
    .map((d) => d.toJS() as Obj | null)
    .filter((o): o is Obj => o?.kind === 'CustomResourceDefinition');
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

const core = upstreamCrds('antrea-crds.yml');
const leader = upstreamCrds('antrea-multicluster-leader-global.yml');
const member = upstreamCrds('antrea-multicluster-member.yml');
// `clustersets` ships in both multi-cluster files, identically; compare it once
const multicluster = [...new Map([...leader, ...member].map((o) => [nameOf(o), o])).values()];

const ours = new Map<string, CrdModel>([...coreCrds, ...leaderCrds, ...memberCrds].map((m) => [crdName(m), m]));

function expectConformant(upstream: Obj): void {
  const name = nameOf(upstream);
  const model = ours.get(name);
  expect(model, `no model for ${name}`).toBeDefined();
  const diffs = diffPaths(withoutDescriptions(crdManifest(model!)), withoutDescriptions(upstream));
  expect(diffs, `${name} differs from upstream at:\n${formatDifferences(diffs)}`).toEqual([]);
}

describe.skipIf(!haveRef)('Antrea v2.7.0 CRDs equal upstream (descriptions aside)', () => {
  test('upstream files hold 20 core and 9 distinct multi-cluster CRDs', () => {
    expect(core).toHaveLength(20);
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
