import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { parse } from 'yaml';
import { crdModelFor } from '../../src/antrea/release';
import { NODE_INIT } from '../../src/antrea/workloads';
import { VERIFY_IMAGE } from '../../src/model/clusterset';
import { RELEASES } from '../../src/antrea/releases';
import { formatPath, validateAgainst, validatorForCrd } from '../../src/antrea/validator';
import type { Schema } from '../../src/antrea/schema';
import { compileFiles, isCrdFile } from '../helpers/golden';
import { isCrdPiece, referenceDir, upstreamDocuments } from './reference';
import { without } from '../helpers/objects';
import { soakRows } from '../helpers/soak';

/**
 * Every example and wiring fixture, built at every supported release: the compile itself checks
 * every emitted object against that release's schemas (`output-schema`), and each custom resource
 * must also satisfy upstream's CRD of that release.
 */
type Obj = { apiVersion: string; kind: string; metadata: { name: string; namespace?: string }; [k: string]: unknown };

/**
 * Upstream CRD schemas by `group/version/Kind`, once per release: the documents are parsed once per
 * worker (test/conformance/reference.ts), so a CRD the releases share is one object, and equal
 * schemas are one object too; the validator keeps its compiled functions by schema object, so
 * each distinct schema is compiled once across the releases and tests.
 */
const parsedReleases = new Map<string, Map<string, Schema>>();
const sameSchemas = new Map<string, Schema>();
function upstreamSchemas(dir: string): Map<string, Schema> {
  const cached = parsedReleases.get(dir);
  if (cached) return cached;
  const out = new Map<string, Schema>();
  parsedReleases.set(dir, out);
  for (const file of ['antrea-crds.yml', 'antrea-multicluster-leader-global.yml', 'antrea-multicluster-member.yml']) {
    for (const doc of upstreamDocuments(dir, file, { keep: isCrdPiece })) {
      const crd = doc as {
        kind?: string;
        spec: { group: string; names: { kind: string }; versions: { name: string; schema: { openAPIV3Schema: Schema } }[] };
      } | null;
      if (crd?.kind !== 'CustomResourceDefinition') continue;
      for (const v of crd.spec.versions) {
        const schema = v.schema.openAPIV3Schema;
        const text = JSON.stringify(schema);
        if (!sameSchemas.has(text)) sameSchemas.set(text, schema);
        out.set(`${crd.spec.group}/${v.name}/${crd.spec.names.kind}`, sameSchemas.get(text)!);
      }
    }
  }
  return out;
}

const EXAMPLES = ['clustersets/demo-clusterset.yaml', 'clustersets/eks-clusterset.yaml', 'clustersets/test-clusterset.yaml'];
const FIXTURES = ['dual-role-manual', 'external-secret', 'sealed-secret'].map((f) => `test/fixtures/compile/${f}/definition.yaml`);

const scratch = mkdtempSync(join(tmpdir(), 'clusterset-releases-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/**
 * An output file's object, parsed once: both tests read every definition's files, and the
 * releases' bundles share most of them (read only here, so one object serves every reader).
 */
const parsedFiles = new Map<string, Obj>();
const objectOf = (content: string): Obj => {
  let object = parsedFiles.get(content);
  if (!object) parsedFiles.set(content, (object = parse(content) as Obj));
  return object;
};

/** A copy of a definition that names another release (the examples are written for the newest). */
function atRelease(file: string, version: string): string {
  const text = readFileSync(file, 'utf8');
  const pattern = /^(\s+version:\s*)v\d+\.\d+\.\d+\s*$/m;
  expect(pattern.test(text), `${file} names no release`).toBe(true);
  const changed = text.replace(pattern, `$1${version}`);
  const out = join(scratch, `${version}-${file.replaceAll('/', '_')}`);
  writeFileSync(out, changed);
  return out;
}

/**
 * The definitions built at a release: in npm test every one at the newest release, and at each
 * older one half of them by turns (every definition meets an older release) and the one with
 * Tiers (every custom resource kind at every release); every one at every release in the soak
 * tier (test/helpers/soak.ts).
 */
const NEWEST = RELEASES.length - 1;
const WITH_TIERS = 'test/fixtures/compile/dual-role-manual/definition.yaml';
const definitionsAt = (releaseIndex: number) =>
  soakRows([...EXAMPLES, ...FIXTURES], (file, i) => releaseIndex === NEWEST || file === WITH_TIERS || i % NEWEST === releaseIndex % NEWEST);

describe.each(RELEASES.map((r, i) => [r.version, r, i] as const))('Antrea %s', (version, release, releaseIndex) => {
  const { dir, have } = referenceDir(release, 'emitted-resource');

  describe.each(definitionsAt(releaseIndex))('%s', (file) => {
    test('compiles with every object checked against the release schemas, custom resources against upstream', async () => {
      const files = await compileFiles([atRelease(file, version)]);
      const objects = files
        .filter((f) => f.path.endsWith('.yaml') && !f.path.endsWith('kustomization.yaml') && !isCrdFile(f.path))
        .map((f) => ({ path: f.path, object: objectOf(f.content) }));
      const images = objects.flatMap(({ object }) => JSON.stringify(object).match(/"image":"[^"]+"/g) ?? []);
      // a cloud's node-init runs upstream's startup-script image, whatever the release; the
      // verification and Tier-restart Jobs the image of spec.verify (pinned by digest)
      const antreaImages = images.filter((image) => !image.includes('/startup-script:') && !image.includes(`"image":"${VERIFY_IMAGE}"`));
      expect(antreaImages.length, `${basename(file)} has Antrea images`).toBeGreaterThan(0);
      // the Jobs' containers
      const jobContainers = objects
        .filter(({ object }) => object.kind === 'Job')
        .flatMap(({ object }) => JSON.stringify(object).match(/"image":"[^"]+"/g) ?? [])
        .filter((i) => i === `"image":"${VERIFY_IMAGE}"`).length;
      expect(images.length - antreaImages.length).toBe(objects.filter(({ object }) => object.metadata.name === NODE_INIT).length + jobContainers);
      for (const image of antreaImages) expect(image).toMatch(new RegExp(`:${version.replaceAll('.', '\\.')}"$`));
      // CRDs are large and hold no images, credentials or custom resources: their names come from their file names
      const crds = files.filter((f) => isCrdFile(f.path)).map((f) => basename(f.path).replace(/^CustomResourceDefinition\.(.*)\.yaml$/, '$1'));
      expect(crds.length).toBeGreaterThan(0);
      expect(crds.includes('antreanodeconfigs.crd.antrea.io')).toBe(release.facts.antreaNodeConfig);
      // one credential per member at every release: never upstream's shared member ServiceAccount
      expect(objects.filter(({ object }) => object.metadata.name === 'antrea-mc-member-access-sa')).toEqual([]);

      const resources = objects.filter(({ object }) => crdModelFor(release, object.apiVersion, object.kind));
      expect(resources.length).toBeGreaterThan(0);
      const schemas = have ? upstreamSchemas(dir) : undefined;
      for (const { path, object } of resources) {
        const [group, apiVersion] = object.apiVersion.split('/') as [string, string];
        const ours = validatorForCrd(crdModelFor(release, object.apiVersion, object.kind)!, apiVersion)(object);
        expect(ours.map((i) => `${path} ${formatPath(i.path)}: ${i.message}`)).toEqual([]);
        if (!schemas) continue;
        const theirs = schemas.get(`${group}/${apiVersion}/${object.kind}`);
        expect(theirs, `upstream ${version} has no CRD for ${object.apiVersion} ${object.kind}`).toBeDefined();
        // the API server owns apiVersion, kind and metadata (some CRDs do not even declare them); ours checks them above
        expect(validateAgainst(theirs!, without(object, 'apiVersion', 'kind', 'metadata')).map((i) => `${path} ${formatPath(i.path)}: ${i.message}`)).toEqual(
          [],
        );
      }
    });
  });

  test('the custom resources cover several kinds', async () => {
    // each definition alone (compiled once: compileFiles remembers the outputs it made)
    const files = (await Promise.all(definitionsAt(releaseIndex).map((f) => compileFiles([atRelease(f, version)])))).flat();
    const kinds = new Set(
      files
        .filter((f) => f.path.endsWith('.yaml') && !f.path.endsWith('kustomization.yaml') && !isCrdFile(f.path))
        .map((f) => objectOf(f.content))
        .filter((o) => crdModelFor(release, o.apiVersion, o.kind))
        .map((o) => o.kind),
    );
    expect([...kinds].sort()).toEqual(expect.arrayContaining(['ClusterSet', 'ResourceExport', 'ServiceExport', 'Tier']));
  });
});
