import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { parse, parseAllDocuments } from 'yaml';
import { crdModelFor } from '../../src/antrea/v2.7.0';
import { formatPath, validateAgainst, validatorForCrd } from '../../src/antrea/validator';
import type { Schema } from '../../src/antrea/schema';
import { compileFiles } from '../helpers/golden';
import { haveReference } from '../helpers/reference';

// every custom resource we emit for the examples must satisfy our schema and upstream's CRD
const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const refDir = resolve(repoRoot, '../shared/reference/antrea/v2.7.0');
const haveRef = haveReference('emitted-resource conformance', refDir);

type Obj = { apiVersion: string; kind: string; metadata: { name: string; namespace?: string }; [k: string]: unknown };

/** Upstream CRD schemas by `group/version/Kind`. */
function upstreamSchemas(): Map<string, Schema> {
  const out = new Map<string, Schema>();
  // a skipped describe still runs its body to collect tests
  if (!haveRef) return out;
  for (const file of ['antrea-crds.yml', 'antrea-multicluster-leader-global.yml', 'antrea-multicluster-member.yml']) {
    for (const doc of parseAllDocuments(readFileSync(resolve(refDir, file), 'utf8'))) {
      const crd = doc.toJS() as { kind?: string; spec: { group: string; names: { kind: string }; versions: { name: string; schema: { openAPIV3Schema: Schema } }[] } } | null;
      if (crd?.kind !== 'CustomResourceDefinition') continue;
      for (const v of crd.spec.versions) out.set(`${crd.spec.group}/${v.name}/${crd.spec.names.kind}`, v.schema.openAPIV3Schema);
    }
  }
  return out;
}

const EXAMPLES = ['clustersets/demo-clusterset.yaml', 'clustersets/eks-clusterset.yaml', 'clustersets/test-clusterset.yaml'];
const FIXTURES = ['dual-role-manual', 'external-secret', 'sealed-secret'].map((f) => `test/fixtures/compile/${f}/definition.yaml`);

describe.skipIf(!haveRef)('custom resources of the examples and fixtures', async () => {
  const schemas = upstreamSchemas();
  const files = await compileFiles([...EXAMPLES, ...FIXTURES]);
  const resources = files
    .filter((f) => f.path.endsWith('.yaml') && !f.path.endsWith('kustomization.yaml'))
    .map((f) => ({ path: f.path, object: parse(f.content) as Obj }))
    .filter(({ object }) => crdModelFor(object.apiVersion, object.kind));

  test('there are custom resources of several kinds to check', () => {
    const kinds = new Set(resources.map((r) => r.object.kind));
    expect([...kinds].sort()).toEqual(expect.arrayContaining(['ClusterSet', 'ResourceExport', 'ServiceExport', 'Tier']));
  });

  test.each(resources.map((r) => [r.path, r.object] as const))('%s', (_, object) => {
    const [group, version] = object.apiVersion.split('/') as [string, string];
    const ours = validatorForCrd(crdModelFor(object.apiVersion, object.kind)!, version)(object);
    expect(ours.map((i) => `${formatPath(i.path)}: ${i.message}`)).toEqual([]);
    const theirs = schemas.get(`${group}/${version}/${object.kind}`);
    expect(theirs, `upstream has no CRD for ${object.apiVersion} ${object.kind}`).toBeDefined();
    // the API server owns apiVersion, kind and metadata (some CRDs do not even declare them); ours checks them above
    const { apiVersion: _a, kind: _k, metadata: _m, ...body } = object;
    const issues = validateAgainst(theirs!, body);
    expect(issues.map((i) => `${formatPath(i.path)}: ${i.message}`)).toEqual([]);
  });
});
