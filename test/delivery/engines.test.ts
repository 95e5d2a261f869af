import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { compile } from '../../src/pipeline/compile';
import { CLUSTER_SET_GATE, CLUSTER_SET_HEALTH } from '../../src/health';
import { celOf } from '../../src/delivery/flux/health-cel';
import type { OutputFile } from '../../src/layout/layout';
import { validatorFor } from '../../src/layout/schemas';
import type { KubeObject } from '../../src/kube/kube-object';
import { compileFiles, expectGoldenTree } from '../helpers/golden';

const EXAMPLES = readdirSync('clustersets')
  .filter((f) => /\.(ya?ml|ts)$/.test(f))
  .sort();
const FIXTURES = 'test/fixtures/compile';
const DELIVERY_FIXTURES = readdirSync(FIXTURES)
  .filter((c) => c.startsWith('delivery-'))
  .sort();

/** Engine folders, and the kustomizations that give each Flux Kustomization its directory. */
const isDeliveryFile = (path: string) => /^[^/]+\/(argocd|flux|flux-per-cluster)\//.test(path) || path.endsWith('/kustomization.yaml');

/** The files under `<prefix>/`, relative to it. */
const under = (files: readonly OutputFile[], prefix: string) =>
  files.filter((f) => f.path.startsWith(`${prefix}/`)).map((f) => ({ ...f, path: f.path.slice(prefix.length + 1) }));

describe.each(EXAMPLES)('example %s', (example) => {
  // dist/ is the examples' golden output; here only the engine folders, which must exist
  test('engine folders match dist/', async () => {
    const files = await compileFiles([join('clustersets', example)]);
    const clusterSet = files.find((f) => f.path.endsWith('/README.md'))!.path.split('/')[0]!;
    const engines = ['argocd', 'flux', 'flux-per-cluster'].filter((e) => files.some((f) => f.path.startsWith(`${clusterSet}/${e}/`)));
    expect(engines.length).toBeGreaterThan(0);
    for (const engine of engines) await expectGoldenTree(under(files, `${clusterSet}/${engine}`), join('dist', clusterSet, engine), () => true);
  });
});

describe.each(DELIVERY_FIXTURES)('fixture %s', (name) => {
  test('engine objects and kustomizations match expected-delivery/', async () => {
    const files = await compileFiles([join(FIXTURES, name, 'definition.yaml')]);
    await expectGoldenTree(files, join(FIXTURES, name, 'expected-delivery'), isDeliveryFile);
  });
});

describe.each([...EXAMPLES.map((e) => join('clustersets', e)), ...DELIVERY_FIXTURES.map((c) => join(FIXTURES, c, 'definition.yaml'))])('%s', (definition) => {
  const compiled = compile({ files: [definition] });

  test('every engine object passes its @kubernetes-models schema', async () => {
    const { outputs } = await compiled;
    const objects = Object.values(outputs[0]!.engines).flat();
    for (const o of objects) {
      const validate = validatorFor(o.apiVersion, o.kind);
      expect(validate, `${o.apiVersion} ${o.kind}`).toBeDefined();
      expect(validate!(o), `${o.kind} ${o.metadata.name}`).toEqual([]);
    }
  });

  test('every engine path names a kustomization that is written', async () => {
    const { files, outputs } = await compiled;
    const output = outputs[0]!;
    const written = new Set(files.map((f) => f.path));
    // engine paths are repository paths: `<dist path>/<clusterset>/...`; compiled files start at `<clusterset>/`
    const inDist = (p: string) => p.slice(`/${p}`.indexOf(`/${output.name}/`));
    // the partial argocd-cm (health rules) has no path
    for (const o of Object.values(output.engines)
      .flat()
      .filter((e) => e.kind !== 'ConfigMap')) {
      const spec = o.spec as { path?: string; source?: { path: string }; generators?: { list: { elements: { path: string }[] } }[] };
      const paths =
        spec.path !== undefined ? [spec.path] : spec.source ? [spec.source.path] : spec.generators!.flatMap((g) => g.list.elements.map((e) => e.path));
      for (const p of paths) expect(written.has(`${inDist(p)}/kustomization.yaml`), `${o.kind} ${o.metadata.name}: ${p}`).toBe(true);
    }
  });
});

/** Kustomizations of one engine folder, by name. */
const kustomizations = (objects: readonly KubeObject[]) => new Map(objects.filter((o) => o.kind === 'Kustomization').map((o) => [o.metadata.name, o]));
const dependsOn = (o: KubeObject) => ((o.spec as { dependsOn?: { name: string }[] }).dependsOn ?? []).map((d) => d.name);

describe('Flux ordering', () => {
  test.each([
    // [fixture, hub?]
    ['delivery-hub', true],
    ['delivery-per-cluster-flux', false],
  ] as const)('%s: layers chain, members wait for the leader only with a hub', async (name, hub) => {
    const { outputs } = await compile({ files: [join(FIXTURES, name, 'definition.yaml')] });
    const output = outputs[0]!;
    const all = kustomizations(Object.values(output.engines).flat());
    const leader = output.bundles.find((b) => b.role !== 'member')!.clusterID;
    for (const bundle of output.bundles) {
      const ofCluster = [...all.values()].filter((k) => (k.metadata.labels as Record<string, string>)['antrea-clusterset/cluster-id'] === bundle.clusterID);
      const own = ofCluster.filter((k) => !k.metadata.name.endsWith('-verify'));
      // a member's verification: after its last layer, waiting for the Job as long as it may run; nothing waits for it
      const verify = ofCluster.filter((k) => k.metadata.name.endsWith('-verify'));
      expect(verify.map((k) => k.metadata.name)).toEqual(bundle.role === 'leader' ? [] : [`${output.name}-${bundle.clusterID}-verify`]);
      for (const v of verify) {
        expect(dependsOn(v)).toEqual([`${output.name}-${bundle.clusterID}-4-resources`]);
        expect(v.spec).toMatchObject({ prune: true, wait: true, timeout: '60m' });
        expect((v.spec as { path: string }).path).toMatch(/\/verify$/);
        expect([...all.values()].filter((k) => dependsOn(k).includes(v.metadata.name))).toEqual([]);
      }
      expect(own.map((k) => k.metadata.name)).toEqual(
        ['0-namespaces-crds', '1-rbac-config', '2-webhooks', '3-workloads', '4-resources'].map((l) => `${output.name}-${bundle.clusterID}-${l}`),
      );
      own.forEach((k, i) => {
        const expected = i > 0 ? [own[i - 1]!.metadata.name] : bundle.role === 'member' && hub ? [`${output.name}-${leader}-4-resources`] : [];
        expect(dependsOn(k), k.metadata.name).toEqual(expected);
        for (const d of dependsOn(k)) expect(all.has(d), `${k.metadata.name} depends on a missing ${d}`).toBe(true);
        expect(k.spec).toMatchObject({ prune: true, wait: true });
        expect(k.spec).not.toHaveProperty('postBuild');
      });
      // the health rules sit on the layer that holds their kinds (ClusterSet, ResourceExport; not the
      // ServiceExport, which waits for the application's Service); the leader's ClusterSet rule is
      // the gate variant, which no member waits on; a Gateway Node is taken as it is (its Ready
      // condition is the cluster's, not the bundle's: delivery/flux/health-checks.ts)
      const exprs = own.map((k) => (k.spec as { healthCheckExprs?: { kind: string; current: string }[] }).healthCheckExprs ?? []);
      expect(exprs.map((e) => e.map((x) => x.kind))).toEqual([[], [], [], [], ['ClusterSet', 'ResourceExport', 'Node']]);
      expect(exprs[4]![2]).toEqual({ apiVersion: 'v1', kind: 'Node', current: 'true' });
      const clusterSetRule = bundle.role === 'member' ? CLUSTER_SET_HEALTH : CLUSTER_SET_GATE;
      expect(exprs[4]![0]).toEqual({ apiVersion: clusterSetRule.apiVersion, kind: 'ClusterSet', ...celOf(clusterSetRule) });
    }
    expect(Object.keys(output.engines).sort()).toEqual(
      hub ? ['argocd', 'argocd/applications', 'argocd/health', 'flux'] : output.bundles.map((b) => `flux-per-cluster/${b.clusterID}`).sort(),
    );
  });
});
