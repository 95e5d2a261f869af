import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, test } from 'vitest';
import { ALL_ENGINES, ENGINES, WORDS_ORDER } from '../../src/delivery/registry';
import type { DeliveryEngine } from '../../src/delivery/engine';
import { ClusterDeliverySchema, DeliverySchema } from '../../src/model/clusterset';
import { REPLAYERS } from '../engine-replay/replay';
import { REPLAYED_ENGINES } from '../engine-replay/engines/replayed-engines';

/**
 * What a delivery engine is made of, and so what a new one needs (CONTRIBUTING.md, "A new delivery
 * engine"): every part of `DeliveryEngine` (src/delivery/engine.ts), each leaf a function or a
 * value of the kind named here; `?` marks a leaf an engine may leave out. A leaf added to the
 * interface and not here fails the last test of each engine, so the list stays whole.
 */
const PARTS: Readonly<Record<Exclude<keyof DeliveryEngine, 'key'>, Readonly<Record<string, 'function' | 'string' | 'object' | 'function?' | 'string?'>>>> = {
  objects: {
    canBuild: 'function',
    inputs: 'function',
    clusterSetObjects: 'function',
    clusterObjects: 'function',
    instanceOf: 'function',
    annotate: 'function',
    guard: 'function',
    isGuarded: 'function',
  },
  rules: {
    versions: 'object',
    modeOf: 'function',
    destinations: 'function',
    missingDestinations: 'function',
    clusterSettings: 'function',
    settings: 'function',
  },
  api: { schemas: 'object', isMark: 'function' },
  readme: { title: 'string', tool: 'string', statesKubernetes: 'string', healthy: 'string', diagramLine: 'function', notesSection: 'function' },
  handOver: {
    detail: 'function',
    removalStep: 'string',
    fieldManager: 'string',
    exportsUnitsGo: 'string',
    withdrawn: 'function',
    beforeMerging: 'function?',
    removal: 'function',
  },
  checklist: {
    memberJoins: 'function',
    leaderFirst: 'function',
    reappliesDeletedClusterSet: 'string?',
    pauseMember: 'function',
    memberGone: 'function',
    orphanSteps: 'function',
  },
};

const ROOT = join(import.meta.dirname, '../..');
const KEYS = Object.keys(ENGINES);

describe.each(KEYS)('engine %s', (key) => {
  const engine = ENGINES[key as keyof typeof ENGINES];

  test('is registered under its own key, with a folder of src/delivery/', () => {
    expect(engine.key).toBe(key);
    expect(ALL_ENGINES).toContain(engine);
    expect(existsSync(join(ROOT, 'src/delivery', key, 'index.ts'))).toBe(true);
  });

  test.each(Object.entries(PARTS))('has every leaf of its part %s', (part, leaves) => {
    const value = engine[part as keyof typeof PARTS] as unknown as Record<string, unknown>;
    expect(value, part).toBeTypeOf('object');
    for (const [leaf, kind] of Object.entries(leaves)) {
      if (kind.endsWith('?') && value[leaf] === undefined) continue;
      expect(value[leaf], `${part}.${leaf}`).toBeTypeOf(kind.replace('?', '') as 'function' | 'string' | 'object');
    }
    // nothing the table does not know: a new leaf is listed here, so a new engine is told of it
    expect(Object.keys(value).filter((leaf) => !(leaf in leaves))).toEqual([]);
  });

  test('is keyed in the definition, for the ClusterSet and for a cluster (src/model/clusterset.ts)', () => {
    expect(Object.keys(DeliverySchema.shape)).toContain(key);
    expect(Object.keys(ClusterDeliverySchema.shape)).toContain(key);
  });

  test('has its place in the order of the words (WORDS_ORDER) and in the replay', () => {
    expect(WORDS_ORDER.filter((k) => k === key)).toHaveLength(1);
    expect(REPLAYED_ENGINES).toContain(key);
    expect(REPLAYERS[key as keyof typeof REPLAYERS], 'a model in test/engine-replay/replay.ts REPLAYERS').toBeTypeOf('function');
  });

  test('names supported versions and a schema package that loads', () => {
    expect(engine.rules.versions.length).toBeGreaterThan(0);
    expect(() => createRequire(import.meta.url).resolve(`${engine.api.schemas.package}/package.json`)).not.toThrow();
  });

  test('counts as its marks what it writes on every bundle object, and nothing of the object itself', () => {
    const object = { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'a', labels: { 'app.kubernetes.io/name': 'a' } } };
    const written = { ...engine.objects.annotate({}, object), ...engine.objects.guard({}, 'partial') };
    expect(Object.keys(written).length).toBeGreaterThan(0);
    for (const key of Object.keys(written)) expect(engine.api.isMark(key), key).toBe(true);
    for (const key of ['app.kubernetes.io/name', 'multicluster.antrea.io/gateway']) expect(engine.api.isMark(key), key).toBe(false);
  });

  test('is described in docs/delivery.md', () => {
    const guide = readFileSync(join(ROOT, 'docs/delivery.md'), 'utf8');
    expect(guide).toContain(engine.readme.title);
  });
});

test('WORDS_ORDER lists only registered engines', () => {
  expect([...WORDS_ORDER].sort()).toEqual([...KEYS].sort());
});

/**
 * No stage outside src/delivery/ names an engine: in code (comments are free), no identifier or
 * string that is an engine's key (`spec.delivery.argocd`, `ENGINES.flux`) and no string that is its
 * title. src/model/clusterset.ts declares the keys (the definition's schema). The files listed
 * below still do, each for a reason a later change can take away.
 */
const NAMING_ALLOWED: Readonly<Record<string, string>> = {
  'src/model/clusterset.ts': "the definition's schema declares each engine's key and settings",
  'src/validate/rules/argocd-applicationset-size.ts': 'a rule about Argo CD alone, by its id (its file, test and doc page carry the name)',
  'src/live/drift-engine.ts': "drift reads each engine's own status (Application, Kustomization): not yet an engine part",
};

function namingsOutsideDelivery(): string[] {
  const names = new Set<string>(ALL_ENGINES.map((e) => e.key));
  const titles = new Set<string>(ALL_ENGINES.map((e) => e.readme.title));
  const walk = (dir: string): string[] =>
    readdirSync(dir).flatMap((f) => {
      const p = join(dir, f);
      return statSync(p).isDirectory() ? walk(p) : p.endsWith('.ts') ? [p] : [];
    });
  const found: string[] = [];
  for (const path of walk(join(ROOT, 'src'))) {
    const file = relative(ROOT, path).split('\\').join('/');
    if (file.startsWith('src/delivery/') || file in NAMING_ALLOWED) continue;
    const text = readFileSync(path, 'utf8');
    // parsed only where the text holds a name at all: parsing every file of src/ takes seconds
    if (![...names, ...titles].some((n) => text.includes(n))) continue;
    const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
    const visit = (node: ts.Node): void => {
      const named =
        (ts.isIdentifier(node) && names.has(node.text)) ||
        ((ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) && (names.has(node.text) || titles.has(node.text)));
      if (named) found.push(`${file}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1}: ${node.getText()}`);
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return found;
}

test('no engine is named outside src/delivery/', () => {
  expect(namingsOutsideDelivery()).toEqual([]);
});

test('the allowed files still name an engine (an entry that no longer does goes)', () => {
  const names = [...ALL_ENGINES.flatMap((e) => [e.key, e.readme.title])];
  for (const file of Object.keys(NAMING_ALLOWED)) {
    const text = readFileSync(join(ROOT, file), 'utf8');
    expect(
      names.some((n) => text.includes(`'${n}'`) || text.includes(`.${n}`)),
      file,
    ).toBe(true);
  }
});
