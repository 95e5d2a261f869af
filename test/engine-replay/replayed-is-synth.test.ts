import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { compileDefinition, readDefinition } from './scenario';

/*
 * What the replay applies is what `clusterset synth` writes: for each example, the revision
 * `compileDefinition` hands the engines equals, path for path and byte for byte, the committed
 * dist/ (which `synth --check`, test/cli/committed-dist.test.ts, holds to what `synth` writes):
 * the ClusterSet's folder, the shared units its bundles list, and its entry of manifest.json. A
 * second way of assembling bundles for the tests (a layout the pipeline does not run, a transform
 * only one of them makes) turns this red, so the replay never checks a path synth does not take.
 */

const EXAMPLES = readdirSync('clustersets')
  .filter((f) => f.endsWith('.yaml'))
  .sort();

/** Every file under a folder, by its path from the repository's root. */
function tree(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true }))
    if (entry.isFile()) {
      const path = join(entry.parentPath, entry.name);
      out.set(path, readFileSync(path, 'utf8'));
    }
  return out;
}

type Manifest = { clusterSets: Record<string, unknown> };

describe.each(EXAMPLES)('example %s', (example) => {
  test('the revision the replay applies is the dist/ that synth writes, byte for byte', async () => {
    const compiled = await compileDefinition(readDefinition(join('clustersets', example)));
    const name = compiled.definition.metadata.name;
    const replayed = compiled.revision.files;
    const dist = tree('dist');
    const own = [...dist.keys()].filter((p) => p.startsWith(`dist/${name}/`));
    expect(own.length).toBeGreaterThan(0);

    // the ClusterSet's own folder: the same paths
    expect([...replayed.keys()].filter((p) => p.startsWith(`dist/${name}/`)).sort()).toEqual(own.sort());
    // nothing beyond its folder, the shared units and manifest.json
    expect([...replayed.keys()].filter((p) => !p.startsWith(`dist/${name}/`) && !p.startsWith('dist/_shared/') && p !== 'dist/manifest.json')).toEqual([]);
    // every file but manifest.json (which lists every ClusterSet of dist/): the same bytes
    const differ = [...replayed].filter(([p, content]) => p !== 'dist/manifest.json' && dist.get(p) !== content).map(([p]) => p);
    expect(differ).toEqual([]);
    // the shared units it lists, and its entry of manifest.json (source, hashes, counts, units)
    const entry = (text: string | undefined) => (text === undefined ? undefined : (JSON.parse(text) as Manifest).clusterSets[name]);
    // the index's record of the definition (pipeline/definition-index.ts) is of its text: the hash
    // and its warnings' lines, which differ for the text the replay re-serializes; what the record
    // says of the ClusterSet (delivered, the identities other definitions are checked against) not
    const ofClusterSet = (e: unknown) => {
      const { definition, ...rest } = e as { definition?: { sha256: string; warnings?: unknown; [k: string]: unknown } };
      if (!definition) return rest;
      return { ...rest, definition: Object.fromEntries(Object.entries(definition).filter(([k]) => k !== 'sha256' && k !== 'warnings')) };
    };
    expect(ofClusterSet(entry(replayed.get('dist/manifest.json')))).toEqual(ofClusterSet(entry(dist.get('dist/manifest.json'))));
    const shared = (entry(dist.get('dist/manifest.json')) as { shared: string[] }).shared;
    expect(shared.length).toBeGreaterThan(0);
    for (const unit of shared)
      expect(
        [...replayed.keys()].some((p) => p.startsWith(`dist/${unit}/`)),
        unit,
      ).toBe(true);
  });
});
