import { copyFileSync, existsSync, linkSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, expect, test } from 'vitest';
import { fleet } from '../../bench/fleet';
import { compile } from '../../src/pipeline/compile';
import type { ClusterSetInput } from '../../src/model/clusterset';
import { LATEST, releaseWhere } from '../helpers/releases';
import { contents, outputToDirectory, scratch, stateOf, synth, tree } from './output-fixture';

// The output directory over time: incremental runs equal full runs byte for byte, unchanged
// bundles are neither built nor touched, removals remove. (output-directory.test.ts: the output
// directory as a place, its limits and failures.)

const { fresh, definitionFile } = scratch('clusterset-incremental-');
/** The fleet of most tests here: a leader and five members (members 2 to 5 are named below). */
const SIZE = 6;

describe('incremental synth', () => {
  const before = definitionFile(fleet(SIZE));
  const after = definitionFile(fleet(SIZE, { changedMember: 5 }));

  /**
   * An output a full synth of `before` made, the start of most tests here: synthesized once, and
   * each test given a copy of the output and of its state folder as the synth left them: the
   * spare's record holds no path, and the copy keeps which files are one file (the spare's and
   * the output's hard links), so an edit by hand reaches both as it would.
   */
  let synthesized: Promise<string> | undefined;
  async function synthBefore(): Promise<string> {
    const template = await (synthesized ??= (async () => {
      const dir = fresh('template');
      expect((await synth([before], { out: dir })).built).toBe(SIZE);
      return dir;
    })());
    const out = fresh('out');
    const copies = new Map<number, string>();
    for (const [from, to] of [
      [template, out],
      [stateOf(template), stateOf(out)],
    ]) {
      for (const e of readdirSync(from!, { recursive: true, withFileTypes: true })) {
        const source = join(e.parentPath, e.name);
        const target = join(to!, relative(from!, source));
        if (e.isDirectory()) mkdirSync(target, { recursive: true });
        else {
          mkdirSync(dirname(target), { recursive: true });
          const { ino } = statSync(source);
          const copy = copies.get(ino);
          if (copy) linkSync(copy, target);
          else {
            copyFileSync(source, target);
            copies.set(ino, target);
          }
        }
      }
    }
    return out;
  }
  /** The files of a full synth of `after` (a fresh output, every bundle built), made once. */
  let afterTree: Promise<Map<string, string>> | undefined;
  const fullAfter = () =>
    (afterTree ??= (async () => {
      const full = fresh('full');
      expect((await synth([after], { out: full })).built).toBe(SIZE);
      return contents(tree(full));
    })());

  test('one member changed: only its bundle is built (the leader reads members by ID only), and the output equals a full synth', async () => {
    const out = fresh('out');
    const first = await synth([before], { out });
    expect(first.built).toBe(SIZE);
    const old = tree(out);
    const second = await synth([after], { out });
    expect(second.built).toBe(1);
    const incremental = tree(out);
    expect(contents(incremental)).toEqual(await fullAfter());
    // files of the untouched bundles are the same files, not rewritten copies; the notes name
    // the new Gateway Node
    const changed = [...incremental].filter(([p, f]) => old.get(p)?.ino !== f.ino).map(([p]) => p.split('/').slice(0, 2).join('/'));
    expect([...new Set(changed)].sort()).toEqual(['fleet/README.md', 'fleet/cluster-5', 'manifest.json']);
    const removed = [...old.keys()].filter((p) => !incremental.has(p));
    // and its verification, renamed by what it now checks (synth/parts/verify-job.ts)
    const verification = /\/(ConfigMap|Job)\.kube-system\.antrea-clusterset-verify-[0-9a-f]{10}\.yaml$/;
    expect(removed.filter((p) => !verification.test(p))).toEqual(['fleet/cluster-5/4-resources/Node.cluster-5-node-1.yaml']);
    expect(removed.filter((p) => verification.test(p)).map((p) => p.split('/').slice(0, 3).join('/'))).toEqual([
      'fleet/cluster-5/verify',
      'fleet/cluster-5/verify',
    ]);
    expect(second.changed).toBe(changed.length + removed.length);
  });

  test('engine files: kept per cluster while its Argo CD and Flux objects hash as recorded, rewritten when they change, restored when deleted', async () => {
    const out = await synthBefore();
    // a ClusterSet-wide delivery setting changes every cluster's Kustomizations, not the bundles
    const slower = fleet(SIZE);
    (slower.spec.delivery as { flux: { interval?: string } }).flux.interval = '30m';
    const slowerFile = definitionFile(slower);
    const result = await synth([slowerFile], { out });
    const full = fresh('full');
    await synth([slowerFile], { out: full });
    expect(contents(tree(out))).toEqual(contents(tree(full)));
    // every Kustomization (five layers per cluster, and one per Namespace a member exports from), the README (its Flux commands) and manifest.json
    const kustomizations = [...tree(full).keys()].filter((p) => p.includes('/flux/Kustomization.')).length;
    expect(kustomizations).toBeGreaterThan(SIZE * 5);
    expect(result.changed).toBe(kustomizations + 2);
    // one member's kubeconfig Secret: its own Kustomizations and bundle change, nobody else's
    const moved = fleet(SIZE);
    (moved.spec.clusters[4] as { delivery: { flux: { kubeConfigSecretRef: { name: string } } } }).delivery.flux.kubeConfigSecretRef.name = 'cluster-4-admin';
    const movedFile = definitionFile(moved);
    await synth([movedFile], { out });
    const movedFull = fresh('full');
    await synth([movedFile], { out: movedFull });
    expect(contents(tree(out))).toEqual(contents(tree(movedFull)));
    // a kept cluster's engine file deleted by hand comes back
    const kustomization = join(out, 'fleet/flux/Kustomization.flux-system.fleet-cluster-2-3-workloads.yaml');
    expect(existsSync(kustomization)).toBe(true);
    rmSync(kustomization);
    const repaired = await synth([movedFile], { out });
    expect(repaired.built).toBe(0);
    expect(contents(tree(out))).toEqual(contents(tree(movedFull)));
  });

  // every input an engine object reads, changed on its own: the kept engine files must still equal
  // a full synth's (a cluster's engine hash that missed one of them would keep stale files)
  interface Mutable {
    metadata: { name: string };
    spec: {
      leader: { clusterID: string };
      clusters: { clusterID: string; member?: boolean; delivery?: { flux?: { kubeConfigSecretRef: { name: string; key?: string } } } }[];
      delivery: { flux: { sourceRef: { namespace?: string }; path?: string }; argocd?: { repoURL: string } };
      services: { name: string; namespace: string; exportFrom: string[] | '*' }[];
    };
  }
  const members = (d: Mutable) => d.spec.clusters.slice(1);
  test.each<[string, (d: Mutable) => void]>([
    ['the hub goes: no member has a kubeconfig Secret, each cluster gets its own flux/<clusterID>/', (d) => members(d).forEach((c) => delete c.delivery)],
    ['a kubeconfig key added to one member', (d) => (members(d)[2]!.delivery!.flux!.kubeConfigSecretRef.key = 'config')],
    ['the Flux source moves to another namespace', (d) => (d.spec.delivery.flux.sourceRef.namespace = 'sources')],
    ['the dist path in the repository changes', (d) => (d.spec.delivery.flux.path = 'deploy/dist')],
    [
      'a new leader: every member waits for its last layer',
      (d) => {
        d.spec.leader.clusterID = 'cluster-1';
        Object.assign(d.spec.clusters[0]!, {
          member: true,
          podCIDRs: ['10.0.0.0/24'],
          serviceCIDR: '172.16.0.0/28',
          gateways: [{ node: 'cluster-0-node-1', ip: '100.64.0.1' }],
        });
      },
    ],
    [
      'Argo CD added beside Flux, one destination per cluster',
      (d) => {
        d.spec.delivery.argocd = { repoURL: 'https://git.example.com/fleet.git' };
        for (const c of d.spec.clusters) Object.assign(c, { delivery: { ...c.delivery, argocd: { name: c.clusterID } } });
      },
    ],
    ['the ClusterSet renamed', (d) => (d.metadata.name = 'fleet-2')],
    // exports are a unit per application Namespace: a Kustomization (and an exports Application) each
    ['a member exports from a Namespace of its own', (d) => d.spec.services.push({ name: 'api', namespace: 'payments', exportFrom: ['cluster-3'] })],
    ['no Service is exported any more', (d) => (d.spec.services = [])],
    [
      'with Argo CD, a member starts exporting (the exports ApplicationSet and Application)',
      (d) => {
        d.spec.delivery.argocd = { repoURL: 'https://git.example.com/fleet.git' };
        for (const c of d.spec.clusters) Object.assign(c, { delivery: { ...c.delivery, argocd: { name: c.clusterID } } });
        d.spec.services.push({ name: 'api', namespace: 'payments', exportFrom: ['cluster-5'] });
      },
    ],
  ])('engine inputs: %s; the output equals a full synth', async (_, mutate) => {
    const out = await synthBefore();
    const changed = fleet(SIZE) as unknown as Mutable;
    mutate(changed);
    const file = definitionFile(changed as unknown as ClusterSetInput);
    await synth([file], { out });
    const full = fresh('full');
    await synth([file], { out: full });
    expect(contents(tree(out))).toEqual(contents(tree(full)));
  });

  test('a kept bundle is known from manifest.json alone; a manifest without file counts and units (an older compiler) is read back from the folders', async () => {
    const out = await synthBefore();
    const manifestPath = join(out, 'manifest.json');
    const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as { clusterSets: Record<string, { clusters: { files?: number; units?: number[] }[] }> };
    const recorded = manifest.clusterSets.fleet!.clusters;
    expect(recorded.every((c) => typeof c.files === 'number' && Array.isArray(c.units) && c.units.length > 0)).toBe(true);
    for (const c of recorded) {
      delete c.files;
      delete c.units;
    }
    writeFileSync(manifestPath, JSON.stringify(manifest, null, 2));
    const result = await synth([after], { out });
    expect(result.built).toBe(1);
    expect(contents(tree(out))).toEqual(await fullAfter());
    expect(result.files).toBe((await fullAfter()).size);
  });

  // manifest.json is the output's (a pull request's): an entry of another shape is no record, never a crash
  test.each([
    { what: 'clusters not a list', edit: (e: Record<string, unknown>) => (e.clusters = 'x') },
    { what: 'a cluster without inputs', edit: (e: Record<string, unknown>) => delete (e.clusters as Record<string, unknown>[])[0]!.inputs },
    { what: 'shared not a list', edit: (e: Record<string, unknown>) => (e.shared = 7) },
    { what: 'a blob id not a string', edit: (e: Record<string, unknown>) => (e.blobs = { 'README.md': 1 }) },
    { what: 'the entry null', edit: () => null },
  ])('a manifest.json entry of another shape ($what): that ClusterSet is built, and the output equals a full synth', async ({ edit }) => {
    const out = await synthBefore();
    const manifestPath = join(out, 'manifest.json');
    const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as { clusterSets: Record<string, Record<string, unknown> | null> };
    const entry = manifest.clusterSets.fleet!;
    if (edit(entry) === null) manifest.clusterSets.fleet = null;
    writeFileSync(manifestPath, JSON.stringify(manifest, null, 2));
    const result = await synth([after], { out });
    expect(result.built).toBe(SIZE);
    expect(contents(tree(out))).toEqual(await fullAfter());
  });

  test.each([
    { compiler: 'this compiler', taken: true },
    { compiler: 'another compiler', taken: false },
  ])('a shared unit the output holds as $compiler wrote it: taken as it is ($taken), else checked and compared again', async ({ taken }) => {
    const out = await synthBefore();
    // a file of a shared unit the changed member lists, edited by hand where only its bytes can tell
    const unit = /\.\.\/\.\.\/\.\.\/(_shared\/\S+)/.exec(readFileSync(join(out, 'fleet/cluster-5/3-workloads/kustomization.yaml'), 'utf8'))![1]!;
    const unitFile = `${unit}/${readdirSync(join(out, unit)).find((f) => f !== 'kustomization.yaml')!}`;
    const edited = `${readFileSync(join(out, unitFile), 'utf8')}# edited by hand\n`;
    writeFileSync(join(out, unitFile), edited);
    if (!taken) {
      const manifestPath = join(out, 'manifest.json');
      writeFileSync(manifestPath, readFileSync(manifestPath, 'utf8').replace(/"compiler": "[^"]+"/, '"compiler": "antrea-clusterset@0.0.0"'));
    }
    const result = await synth([after], { out });
    expect(result.built).toBe(1);
    // the unit's folder is named by the bytes this compiler wrote: a run of it trusts the folder
    // (as it trusts a kept bundle's) and neither reads nor checks it; --check compares every byte
    expect(readFileSync(join(out, unitFile), 'utf8') === edited).toBe(taken);
    const check = await outputToDirectory([after], { out, full: true, check: true }, []);
    expect(check!.stale).toEqual(taken ? [`${unitFile} (changed)`] : []);
    if (!taken) expect(contents(tree(out))).toEqual(await fullAfter());
  });

  test('nothing changed: nothing is built or written', async () => {
    const out = await synthBefore();
    const old = tree(out);
    const again = await synth([before], { out });
    expect(again).toMatchObject({ built: 0, changed: 0, files: old.size });
    expect(tree(out)).toEqual(old);
  });

  test('--rebuild builds every bundle but still writes only the files whose bytes differ', async () => {
    const out = await synthBefore();
    const again = await synth([before], { out, rebuild: true });
    expect(again).toMatchObject({ built: SIZE, changed: 0 });
  });

  test('a member switched to install: multiclusterOnly and back: its chart values file comes and goes, as in a full synth', async () => {
    const out = await synthBefore();
    const switched = fleet(SIZE);
    const c3 = switched.spec.clusters[3] as { install?: string };
    c3.install = 'multiclusterOnly';
    const switchedFile = definitionFile(switched);
    const result = await synth([switchedFile], { out });
    expect(result.built).toBe(1);
    expect(existsSync(join(out, 'fleet/cluster-3/antrea-helm-values.yaml'))).toBe(true);
    const full = fresh('full');
    await synth([switchedFile], { out: full });
    expect(contents(tree(out))).toEqual(contents(tree(full)));
    await synth([before], { out });
    expect(existsSync(join(out, 'fleet/cluster-3/antrea-helm-values.yaml'))).toBe(false);
    const back = fresh('full');
    await synth([before], { out: back });
    expect(contents(tree(out))).toEqual(contents(tree(back)));
  });

  test('a removed member: its folder goes, the rest stays', async () => {
    const out = await synthBefore();
    const smaller = definitionFile(fleet(SIZE - 1));
    const result = await synth([smaller], { out });
    expect(existsSync(join(out, `fleet/cluster-${SIZE - 1}`))).toBe(false);
    const full = fresh('full');
    await synth([smaller], { out: full });
    expect(contents(tree(out))).toEqual(contents(tree(full)));
    // the leader, which holds one credential fewer, and the other members but the removed one, whose verification
    // no longer looks for its ClusterInfo (verify/gateway-verifications.ts clusterInfoImported)
    expect(result.built).toBe(SIZE - 1);
  });

  test('a renamed ClusterSet: the old folder and the CRD sets nobody lists go; a partial synth keeps the others', async () => {
    const OLDER = releaseWhere((r) => r.version !== LATEST, 'a release other than the newest').version;
    const out = fresh('out');
    const a = definitionFile(fleet(3, { name: 'alpha' }), 'alpha');
    // other clusters than alpha's (cluster-in-two-definitions): its own IDs and kubeconfig Secrets
    const beta = JSON.parse(JSON.stringify(fleet(3, { name: 'beta', version: OLDER })).replace(/cluster-(\d)/g, 'beta-$1')) as ReturnType<typeof fleet>;
    const b = definitionFile(beta, 'beta');
    await synth([a, b], { out });
    expect(readdirSync(join(out, '_shared')).sort()).toEqual([OLDER, LATEST].sort());
    // a partial synth of alpha keeps beta, its manifest entry and its CRD sets
    await synth([a], { out, full: false });
    expect(readdirSync(out).sort()).toEqual(['_shared', 'alpha', 'beta', 'manifest.json']);
    expect(readdirSync(join(out, '_shared')).sort()).toEqual([OLDER, LATEST].sort());
    // a full synth of alpha alone removes beta and the older release's CRD sets
    await synth([a], { out });
    expect(readdirSync(out).sort()).toEqual(['_shared', 'alpha', 'manifest.json']);
    expect(readdirSync(join(out, '_shared'))).toEqual([LATEST]);
  });

  test('check reports what a synth would change and writes nothing', async () => {
    const out = await synthBefore();
    const old = tree(out);
    const result = await synth([after], { out, check: true });
    expect(result.stale).toEqual(
      expect.arrayContaining([
        'fleet/cluster-5/4-resources/Node.cluster-5-node-2.yaml (missing)',
        'fleet/cluster-5/4-resources/Node.cluster-5-node-1.yaml (not generated)',
        'manifest.json (changed)',
      ]),
    );
    expect(tree(out)).toEqual(old);
  });

  test('the in-memory compile and the streamed output are the same files', async () => {
    const out = await synthBefore();
    const { files } = await compile({ files: [before], outDir: out });
    expect(contents(tree(out))).toEqual(new Map(files.map((f) => [f.path, f.content])));
  });
});
