import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { LAYER_DIRECTORIES } from '../../../src/synth/delivery';
import { compileFiles, withSharedUnitsInBundles } from '../../helpers/golden';

/** kubectl's built-in kustomize, with its default load restrictions (as Argo CD's); skipped where absent. */
const kubectl = (() => {
  try {
    execFileSync('kubectl', ['version', '--client'], { stdio: 'ignore' });
    return true;
  } catch {
    console.warn('[kubectl kustomize] skipped: kubectl is not installed');
    return false;
  }
})();

const build = (dir: string): { kind: string; metadata: { name: string } }[] =>
  parseAllDocuments(execFileSync('kubectl', ['kustomize', dir], { encoding: 'utf8' }))
    .map((d) => d.toJS() as { kind: string; metadata: { name: string } } | null)
    .filter((o) => o !== null);

describe.skipIf(!kubectl)('kubectl kustomize', () => {
  const out = mkdtempSync(join(tmpdir(), 'clusterset-kustomize-'));
  afterAll(() => rmSync(out, { recursive: true, force: true }));

  test.each(['clustersets/test-clusterset.yaml', 'test/fixtures/compile/delivery-hub/definition.yaml'])(
    '%s: each bundle builds whole, and its layers build to a partition of it',
    async (definition) => {
      const files = await compileFiles([definition]);
      for (const f of files) {
        mkdirSync(dirname(join(out, f.path)), { recursive: true });
        writeFileSync(join(out, f.path), f.content);
      }
      const bundles = [...new Set(files.filter((f) => f.path.split('/').length === 3 && f.path.endsWith('/kustomization.yaml')).map((f) => dirname(f.path)))];
      expect(bundles.length).toBeGreaterThan(0);
      for (const bundle of bundles) {
        const key = (o: { kind: string; metadata: { name: string; namespace?: string } }) => `${o.kind}/${o.metadata.namespace ?? ''}/${o.metadata.name}`;
        // kustomize sorts its output by kind; compare as sets
        const whole = build(join(out, bundle)).map(key).sort();
        const layers = LAYER_DIRECTORIES.flatMap((l) => build(join(out, bundle, l)).map(key)).sort();
        expect(layers).toEqual(whole);
        // every object file of the bundle, and of the CRD set it lists, is in the build
        expect(whole.length).toBe(
          withSharedUnitsInBundles(files).filter((f) => f.path.startsWith(`${bundle}/`) && !f.path.endsWith('kustomization.yaml')).length,
        );
      }
    },
  );
});
