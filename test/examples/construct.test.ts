import { execFileSync } from 'node:child_process';
import { inspect } from 'node:util';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { App } from 'cdk8s';
import { afterAll, describe, expect, test, vi } from 'vitest';
import { parse, parseAllDocuments } from 'yaml';
import prod from '../../examples/construct/prod';
import { compile } from '../../src/pipeline/compile';
import { AntreaClusterSet, ClusterSetError } from '../../src/construct/antrea-clusterset';
import type { ClusterSetInput } from '../../src/model/clusterset';
import { withSharedUnitsInBundles } from '../helpers/golden';
import { SOAK } from '../helpers/soak';

// The construct library yields the objects `clusterset synth` writes, in process and through
// the runnable example: its main.ts as `cdk8s synth` runs it (in npm test, in process with the
// output directory cdk8s passes; in the soak tier, test/helpers/soak.ts, through cdk8s-cli itself).

const EXAMPLE = resolve(import.meta.dirname, '../../examples/construct');
const tmp = mkdtempSync(join(tmpdir(), 'clusterset-construct-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** Objects as sorted canonical JSON, so two sets compare independent of order and formatting. */
const canonical = (objects: readonly unknown[]): string[] => objects.map((o) => JSON.stringify(sortKeys(o))).sort();
function sortKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortKeys);
  if (v && typeof v === 'object')
    return Object.fromEntries(
      Object.keys(v)
        .sort()
        .map((k) => [k, sortKeys((v as Record<string, unknown>)[k])]),
    );
  return v;
}

/**
 * A text's object, parsed once: a shared unit (the CRDs) is in every bundle that lists it, and the
 * example's charts repeat them too (each caller only reads the object).
 */
const parsedTexts = new Map<string, unknown>();
const parsedOnce = (kind: 'object' | 'documents', text: string, read: (text: string) => unknown): unknown => {
  const key = `${kind}\0${text}`;
  if (!parsedTexts.has(key)) parsedTexts.set(key, read(text));
  return parsedTexts.get(key);
};

/** Every Kubernetes object the CLI writes for a definition (kustomizations are file lists, not objects). */
async function compiledObjects(file: string): Promise<string[]> {
  const result = await compile({ files: [file] });
  expect(result.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  return canonical(
    withSharedUnitsInBundles(result.files)
      .filter((f) => f.path.endsWith('.yaml') && !f.path.endsWith('kustomization.yaml'))
      .map((f): unknown => parsedOnce('object', f.content, (t) => parse(t))),
  );
}

/** What the CLI writes for the example's definition, compiled once for the tests that compare with it. */
let exampleObjects: Promise<string[]> | undefined;
const cliObjects = () => (exampleObjects ??= compiledObjects('examples/construct/prod.ts'));

/** The objects of the example's manifests, one file per chart, named by chart. */
function manifests(out: string) {
  const files = readdirSync(out).filter((f) => f.endsWith('.k8s.yaml'));
  expect(files.map((f) => f.replace(/-[0-9a-f]{8}\.k8s\.yaml$/, '')).sort()).toEqual([
    'prod-argocd',
    'prod-argocd-applications',
    'prod-argocd-health',
    'prod-east',
    'prod-leader',
    'prod-west',
  ]);
  // each document on its own (split before each `---` line), once per text: the charts' CRDs repeat
  const documents = (text: string): unknown[] =>
    text
      .split(/^(?=---(?:[ \t]|$))/m)
      .flatMap((piece) => parsedOnce('documents', piece, (t) => parseAllDocuments(t).map((d) => d.toJS() as unknown)) as unknown[]);
  return canonical(files.flatMap((f) => documents(readFileSync(join(out, f), 'utf8'))));
}

describe('AntreaClusterSet', () => {
  test('yields the same objects as the CLI, one chart per cluster and per engine', async () => {
    const app = new App();
    const clusterSet = new AntreaClusterSet(app, 'prod', { definition: prod });
    expect(Object.keys(clusterSet.charts)).toEqual(['leader', 'east', 'west']);
    expect(Object.keys(clusterSet.engineCharts).sort()).toEqual(['argocd', 'argocd/applications', 'argocd/health']);
    const objects = canonical(app.charts.flatMap((c): unknown[] => c.toJson()));
    expect(objects.length).toBeGreaterThan(100);
    expect(objects).toEqual(await cliObjects());
  });

  test('the runnable example, as `cdk8s synth` runs it, writes the same objects as the CLI', async () => {
    // cdk8s-cli runs the app (cdk8s.yaml's `app`) with the output directory in CDK8S_OUTDIR, which App reads
    const out = join(tmp, 'in-process');
    const previous = process.env.CDK8S_OUTDIR;
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    let printed: unknown[][];
    try {
      process.env.CDK8S_OUTDIR = out;
      await import('../../examples/construct/main');
    } finally {
      if (previous === undefined) delete process.env.CDK8S_OUTDIR;
      else process.env.CDK8S_OUTDIR = previous;
      printed = error.mock.calls;
      error.mockRestore();
    }
    expect(printed).toEqual([['charts: leader, east, west']]);
    expect(manifests(out)).toEqual(await cliObjects());
  });

  if (SOAK)
    test('the runnable example through `cdk8s synth` writes the same objects as the CLI', async () => {
      const out = join(tmp, 'cdk8s');
      execFileSync(process.execPath, [resolve('node_modules/cdk8s-cli/bin/cdk8s'), 'synth', '--output', out], { cwd: EXAMPLE, stdio: 'pipe' });
      expect(manifests(out)).toEqual(await cliObjects());
    });

  const withClusters = (clusters: unknown[]): ClusterSetInput => ({ ...prod, spec: { ...prod.spec, clusters } }) as ClusterSetInput;
  test.each([
    {
      name: 'a typo in a definition object',
      definition: withClusters([...prod.spec.clusters.slice(0, 2), { clusterID: 'west', podCIDR: ['10.0.0.0/16'], delivery: { argocd: { name: 'west' } } }]),
      message:
        /^ClusterSet "prod" has 1 error:\nspec\.clusters\[2\]\.podCIDR: error schema: unknown key "podCIDR" in spec\.clusters\[2\]\n {2}hint: did you mean "podCIDRs"\?$/,
    },
    {
      name: 'two rule errors',
      definition: withClusters([...prod.spec.clusters, { clusterID: 'east', serviceCIDR: '10.96.0.0/16', gateways: [{ node: 'x' }] }]),
      message: /^ClusterSet "prod" has \d+ errors:\n[\s\S]*cluster-id-duplicate[\s\S]*service-cidr-overlap/,
    },
    {
      name: 'a YAML file, with positions',
      definition: { file: 'test/fixtures/cli/typo.yaml' },
      // as the CLI prints it: position, severity and code, then the code frame
      message: /\ntest\/fixtures\/cli\/typo\.yaml:15:7: error schema: unknown key "podCIDR"[^\n]*\n {2}14 \| [^\n]*\n {2}15 \| {7}podCIDR/,
    },
    {
      name: 'a missing file',
      definition: { file: 'no/such.yaml' },
      message: /\nno\/such\.yaml:1:1: error file-system: cannot read "no\/such\.yaml": no such file or directory(\n|$)/,
    },
  ])('$name: one ClusterSetError listing the diagnostics', ({ definition, message }) => {
    let error: unknown;
    try {
      new AntreaClusterSet(new App(), 'prod', { definition: definition });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ClusterSetError);
    expect((error as ClusterSetError).message).toMatch(message);
    expect((error as ClusterSetError).diagnostics.length).toBeGreaterThan(0);
    // Node prints an uncaught error with util.inspect: the message, not a dump of the diagnostics
    expect(inspect(error)).not.toMatch(/diagnostics: \[|\bid: 'prod'/);
  });
});
