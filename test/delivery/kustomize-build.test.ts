import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { LAYER_DIRECTORIES } from '../../src/delivery';
import { EXPORTS_DIRECTORY, LABELLED_UNIT_DIRECTORIES } from '../../src/delivery/layer-paths';
import { compileFiles, withSharedUnitsInBundles } from '../helpers/golden';
import { haveKubectl } from '../helpers/kustomize';
import { soakRows } from '../helpers/soak';

/** kubectl's built-in kustomize, with its default load restrictions (as Argo CD's), under the tools gate. */
const kubectl = haveKubectl('test/delivery/kustomize-build.test.ts');

/**
 * Kind, namespace and name of every object `kubectl kustomize` builds from a folder. Read from
 * kustomize's normalized output (documents split by `---`, top-level keys at column 0, metadata's
 * at column 2) rather than parsed whole: a bundle's build is hundreds of kilobytes of YAML, and a
 * full parse cost more than kustomize itself.
 */
const build = (dir: string): string[] => {
  const key = input(dir);
  let keys = builds.get(key);
  if (!keys) builds.set(key, (keys = kustomize(dir)));
  return [...keys];
};

/**
 * A folder's build, once per input: the same files at the same depth under the output (its
 * references, `../../../_shared/<release>/<layer>/<hash>`, then reach the same files), as the
 * two members' CRD and webhook layers are. kubectl's start and its read of the CRDs were most of
 * this file's time.
 */
const builds = new Map<string, string[]>();
const input = (dir: string): string =>
  [
    dir.split('/').length,
    ...readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((f) => f.isFile())
      .map((f) => join(f.parentPath, f.name))
      .sort()
      .map((f) => `${relative(dir, f)}\0${readFileSync(f, 'utf8')}`),
  ].join('\0\0');

const kustomize = (dir: string): string[] =>
  execFileSync('kubectl', ['kustomize', dir], { encoding: 'utf8', maxBuffer: 64 << 20 })
    .split(/^---\n/m)
    .filter((doc) => doc.trim() !== '')
    .map((doc) => {
      const field = (text: string, re: RegExp) => re.exec(text)?.[1];
      const metadata = field(doc, /^metadata:\n((?: .*\n?)*)/m) ?? '';
      const key = [field(doc, /^kind: (.+)$/m), field(metadata, /^ {2}namespace: (.+)$/m) ?? '', field(metadata, /^ {2}name: (.+)$/m)];
      expect(key[0] && key[2], `an object without kind or name in the build of ${dir}:\n${doc}`).toBeTruthy();
      return key.join('/');
    });

describe.skipIf(!kubectl)('kubectl kustomize', () => {
  const out = mkdtempSync(join(tmpdir(), 'clusterset-kustomize-'));
  afterAll(() => rmSync(out, { recursive: true, force: true }));

  // each build is a kubectl process: npm test builds the example whose bundles have three layouts
  // (a leader, a member that exports, one that does not: two of them, below); the soak tier the
  // hub fixture too
  test.each(soakRows(['clustersets/test-clusterset.yaml', 'test/fixtures/compile/delivery-hub/definition.yaml'], (_, i) => i === 0))(
    '%s: each bundle builds whole, and its layers build to a partition of it',
    async (definition) => {
      const files = await compileFiles([definition]);
      for (const f of files) {
        mkdirSync(dirname(join(out, f.path)), { recursive: true });
        writeFileSync(join(out, f.path), f.content);
      }
      const every = [...new Set(files.filter((f) => f.path.split('/').length === 3 && f.path.endsWith('/kustomization.yaml')).map((f) => dirname(f.path)))];
      expect(every.length).toBeGreaterThan(0);
      // npm test: the leader and the member that exports (test-cluster-west: every member layer
      // and unit, and the exports); the member that does not (test-cluster-east, the same layers
      // for another cluster) in the soak tier
      const bundles = soakRows(every, (bundle) => !bundle.endsWith('/test-cluster-east'));
      for (const bundle of bundles) {
        // kustomize sorts its output by kind; compare as sets
        const whole = build(join(out, bundle)).sort();
        // the root lists the layers alone: its sync ends with the last one (#38)
        const layers = LAYER_DIRECTORIES.flatMap((l) => build(join(out, bundle, l))).sort();
        expect(layers).toEqual(whole);
        // the units after the layers (the verification, the Tier restart) build on their own
        const units = LABELLED_UNIT_DIRECTORIES.filter((u) => existsSync(join(out, bundle, u))).flatMap((u) => build(join(out, bundle, u)));
        // the exports, outside the root, build on their own and as one folder per Namespace
        const exports = existsSync(join(out, bundle, EXPORTS_DIRECTORY)) ? build(join(out, bundle, EXPORTS_DIRECTORY)).sort() : [];
        const namespaces = exports.length > 0 ? readdirSync(join(out, bundle, EXPORTS_DIRECTORY), { withFileTypes: true }).filter((d) => d.isDirectory()) : [];
        expect(namespaces.flatMap((d) => build(join(out, bundle, EXPORTS_DIRECTORY, d.name))).sort()).toEqual(exports);
        // every object file of the bundle, and of the CRD set it lists, is in the builds
        expect(whole.length + units.length + exports.length).toBe(
          withSharedUnitsInBundles(files).filter((f) => f.path.startsWith(`${bundle}/`) && !f.path.endsWith('kustomization.yaml')).length,
        );
      }
    },
  );
});
