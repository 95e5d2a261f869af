import { copyFileSync, cpSync, existsSync, linkSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import * as nodeFs from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, relative, sep } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { stringify } from 'yaml';
import { fleet } from '../../bench/fleet';
import { compile } from '../../src/compile';
import type { Diagnostic } from '../../src/diagnostics/diagnostic';
import { OutputError } from '../../src/output/output-error';
import type { FileSystemOps } from '../../src/output/file-system-ops';
import { outputSink, type EmitOptions } from '../../src/pipeline/output-sink';
import { runPipeline, type PipelineInput } from '../../src/pipeline/pipeline';
import { loadYaml } from '../../src/load/load-yaml';
import { fileSystemDiagnostic } from '../../src/diagnostics/file-system';
import type { ClusterSetInput } from '../../src/model/clusterset';
import { LATEST, releaseWhere } from '../helpers/releases';
import { notGatewayHa } from '../helpers/gateway-ha';

// The output directory over time: incremental runs equal full runs byte for byte, unchanged
// bundles are neither built nor touched, removals remove, and a second run is kept out.

const tmp = mkdtempSync(join(tmpdir(), 'clusterset-output-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
let n = 0;
const fresh = (name: string) => join(tmp, `${name}-${n++}`);

function definitionFile(definition: ClusterSetInput, name = 'fleet'): string {
  const dir = fresh('defs');
  mkdirSync(dir);
  const file = join(dir, `${name}.yaml`);
  writeFileSync(file, stringify(definition));
  return file;
}

/** The pipeline into the output: definition files (or loaded sources), its diagnostics pushed into `diagnostics`. */
async function emitToDirectory(input: readonly string[] | PipelineInput, options: EmitOptions, diagnostics: Diagnostic[]) {
  const run = await runPipeline([Array.isArray(input) ? { files: input as readonly string[] } : (input as PipelineInput)], outputSink(options));
  diagnostics.push(...run.diagnostics);
  return run.result;
}

async function synth(files: readonly string[], options: Omit<EmitOptions, 'full'> & { full?: boolean }) {
  const diagnostics: Diagnostic[] = [];
  const result = await emitToDirectory(files, { full: true, ...options }, diagnostics);
  expect(notGatewayHa(diagnostics)).toEqual([]);
  return result!;
}

/** Every file under a directory with its bytes, and the inode, which tells whether it was rewritten. */
function tree(dir: string): Map<string, { content: string; ino: number }> {
  const out = new Map<string, { content: string; ino: number }>();
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const path = join(entry.parentPath, entry.name);
    out.set(relative(dir, path).split(sep).join('/'), { content: readFileSync(path, 'utf8'), ino: statSync(path).ino });
  }
  return out;
}
const contents = (t: Map<string, { content: string }>) => new Map([...t].map(([p, f]) => [p, f.content]));

/** The state folder a synth keeps beside its output (output/output-transaction.ts). */
const stateOf = (out: string) => join(dirname(out), `.${basename(out)}.clusterset`);

describe('incremental synth', () => {
  const before = definitionFile(fleet(12));
  const after = definitionFile(fleet(12, { changedMember: 5 }));

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
      expect((await synth([before], { out: dir })).built).toBe(12);
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
      expect((await synth([after], { out: full })).built).toBe(12);
      return contents(tree(full));
    })());

  test('one member changed: only its bundle is built (the leader reads members by ID only), and the output equals a full synth', async () => {
    const out = fresh('out');
    const first = await synth([before], { out });
    expect(first.built).toBe(12);
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
    const slower = fleet(12);
    (slower.spec.delivery as { flux: { interval?: string } }).flux.interval = '30m';
    const slowerFile = definitionFile(slower);
    const result = await synth([slowerFile], { out });
    const full = fresh('full');
    await synth([slowerFile], { out: full });
    expect(contents(tree(out))).toEqual(contents(tree(full)));
    // every Kustomization (five layers per cluster, and one per Namespace a member exports from), the README (its Flux commands) and manifest.json
    const kustomizations = [...tree(full).keys()].filter((p) => p.includes('/flux/Kustomization.')).length;
    expect(kustomizations).toBeGreaterThan(12 * 5);
    expect(result.changed).toBe(kustomizations + 2);
    // one member's kubeconfig Secret: its own Kustomizations and bundle change, nobody else's
    const moved = fleet(12);
    (moved.spec.clusters[4] as { delivery: { flux: { kubeConfigSecretRef: { name: string } } } }).delivery.flux.kubeConfigSecretRef.name = 'cluster-4-admin';
    const movedFile = definitionFile(moved);
    await synth([movedFile], { out });
    const movedFull = fresh('full');
    await synth([movedFile], { out: movedFull });
    expect(contents(tree(out))).toEqual(contents(tree(movedFull)));
    // a kept cluster's engine file deleted by hand comes back
    const kustomization = join(out, 'fleet/flux/Kustomization.flux-system.fleet-cluster-7-3-workloads.yaml');
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
    const changed = fleet(12) as unknown as Mutable;
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
    expect(result.built).toBe(12);
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
    const check = await emitToDirectory([after], { out, full: true, check: true }, []);
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
    expect(again).toMatchObject({ built: 12, changed: 0 });
  });

  test('a member switched to install: multiclusterOnly and back: its chart values file comes and goes, as in a full synth', async () => {
    const out = await synthBefore();
    const switched = fleet(12);
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
    const smaller = definitionFile(fleet(11));
    const result = await synth([smaller], { out });
    expect(existsSync(join(out, 'fleet/cluster-11'))).toBe(false);
    const full = fresh('full');
    await synth([smaller], { out: full });
    expect(contents(tree(out))).toEqual(contents(tree(full)));
    // the leader, which holds one credential fewer, and the other 10 members, whose verification
    // no longer looks for cluster-11's ClusterInfo (verify/gateway-checks.ts clusterInfoImported)
    expect(result.built).toBe(11);
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

describe('the output directory is ours alone', () => {
  const file = definitionFile(fleet(3));

  test('a second run while one holds the lock is refused, naming the process', async () => {
    const out = fresh('out');
    const state = join(tmp, `.${out.split(sep).pop()}.clusterset`);
    mkdirSync(state, { recursive: true });
    // the parent of this test process is alive for as long as the test runs
    writeFileSync(join(state, 'lock'), `${process.ppid} x`);
    await expect(emitToDirectory([file], { out, full: true }, [])).rejects.toThrow(OutputError);
    await expect(emitToDirectory([file], { out, full: true }, [])).rejects.toThrow(new RegExp(`another clusterset process \\(pid ${process.ppid}\\)`));
    expect(existsSync(out)).toBe(false);
  });

  test('a lock left by a process that is gone is taken over', async () => {
    const out = fresh('out');
    const state = join(tmp, `.${out.split(sep).pop()}.clusterset`);
    mkdirSync(state, { recursive: true });
    writeFileSync(join(state, 'lock'), '2147483646 gone');
    expect((await synth([file], { out })).built).toBe(3);
    // what stays is the spare tree and its record, which git ignores
    expect(readdirSync(state).sort()).toEqual(['.gitignore', 'spare', 'spare.json']);
    expect(readFileSync(join(state, '.gitignore'), 'utf8')).toBe('*\n');
  });

  test('leftovers of older versions are cleaned: .clusterset-tmp-*, <out>.old-*, <clusterset>.old-*', async () => {
    const parent = fresh('parent');
    const out = join(parent, 'dist');
    await synth([file], { out });
    const good = contents(tree(out));
    mkdirSync(join(parent, '.clusterset-tmp-abc/x'), { recursive: true });
    mkdirSync(join(parent, 'dist.old-12-34/fleet'), { recursive: true });
    cpSync(join(out, 'fleet'), join(out, 'fleet.old-12-34'), { recursive: true });
    await synth([file], { out });
    expect(readdirSync(parent).sort()).toEqual(['.dist.clusterset', 'dist']);
    expect(contents(tree(out))).toEqual(good);
  });

  test("hidden top-level entries are the user's: kept as they are now by a synth that changes the output", async () => {
    const parent = fresh('parent');
    const out = join(parent, 'dist');
    await synth([file], { out });
    writeFileSync(join(out, '.keep'), 'mine\n');
    await synth([definitionFile(fleet(3, { changedMember: 1 }))], { out });
    expect(readFileSync(join(out, '.keep'), 'utf8')).toBe('mine\n');
    writeFileSync(join(out, '.keep'), 'edited\n');
    await synth([definitionFile(fleet(3, { changedMember: 2 }))], { out });
    expect(readFileSync(join(out, '.keep'), 'utf8')).toBe('edited\n');
    rmSync(join(out, '.keep'));
    await synth([file], { out });
    expect(existsSync(join(out, '.keep'))).toBe(false);
  });

  test('a journal an older version committed before it was killed is finished', async () => {
    const parent = fresh('parent');
    const out = join(parent, 'dist');
    await synth([file], { out });
    const good = contents(tree(out));
    const state = join(parent, '.dist.clusterset');
    // that version moved staged files in one by one: killed half-way, the stray file is not yet removed
    mkdirSync(join(state, 'staging/fleet'), { recursive: true });
    writeFileSync(join(state, 'staging/fleet/README.md'), good.get('fleet/README.md')!);
    rmSync(join(out, 'fleet/README.md'));
    writeFileSync(join(out, 'fleet/stray.yaml'), 'x: 1\n');
    writeFileSync(join(state, 'journal.json'), JSON.stringify({ deletes: ['fleet/stray.yaml'], moves: ['fleet/README.md'] }));
    await synth([file], { out });
    expect(contents(tree(out))).toEqual(good);
    expect(readdirSync(state).sort()).toEqual(['.gitignore', 'spare', 'spare.json']);
  });

  test('killed between the two renames of an older version: the old tree comes back', async () => {
    const parent = fresh('parent');
    const out = join(parent, 'dist');
    await synth([file], { out });
    const good = contents(tree(out));
    cpSync(out, join(parent, 'dist.old-99-1'), { recursive: true });
    rmSync(out, { recursive: true });
    const result = await synth([file], { out });
    expect(result.built).toBe(0);
    expect(contents(tree(out))).toEqual(good);
  });

  test('the output has ordinary permissions (as the umask gives), not 0700', async () => {
    const out = fresh('out');
    await synth([file], { out });
    const umask = process.umask();
    expect(statSync(out).mode & 0o777).toBe(0o777 & ~umask);
    expect(statSync(join(out, 'fleet')).mode & 0o777).toBe(0o777 & ~umask);
  });
});

describe('limits of what is emitted (#14 item 5)', () => {
  test('an object over 1 MiB is an error and nothing is written', async () => {
    const big = fleet(3) as unknown as { spec: { antrea: Record<string, unknown> } };
    // six values under the per-value limit, together over 1 MiB in the agent ConfigMap
    big.spec.antrea.agentConfig = { transportInterfaceCIDRs: Array.from({ length: 6 }, () => 'x'.repeat(200_000)) };
    const file = definitionFile(big as unknown as ClusterSetInput);
    const diagnostics: Diagnostic[] = [];
    const out = fresh('out');
    await emitToDirectory([file], { out, full: true }, diagnostics);
    expect(diagnostics.some((d) => d.severity === 'error' && /would be \d+ bytes, more than the 1048576/.test(d.message))).toBe(true);
    expect(existsSync(out)).toBe(false);
  });
});

describe('a secret in a bundle', () => {
  // the definition's text is scanned first (inline-secret); this is the second line: a secret that
  // reaches a bundle by any route stops the run, whichever batch of bundles it is scanned in
  test('is an inline-secret error naming the file, wherever it is in a fleet, and nothing is written', async () => {
    // the output is scanned in batches of 1 MiB and a member's bundle is about 50 kB: a hundred
    // clusters make several batches, the first member in the first and the last in another
    const file = definitionFile(fleet(100));
    const source = loadYaml(file, readFileSync(file, 'utf8'), [])!;
    // a Slack token is a valid Kubernetes name: only the output's scan can stop it
    const token = `xoxb-${'1234567890-1234567890-abcdefghijklmnopqrstuvwx'}`;
    // past the definition's scan (its text has no token): node names reach the member's own files (its Gateway Node object)
    const clusters = (source.data as { spec: { clusters: { clusterID: string; gateways: { node: string }[] }[] } }).spec.clusters;
    for (const id of ['cluster-1', 'cluster-99']) clusters.find((c) => c.clusterID === id)!.gateways[0]!.node = `gw-${token}`;
    const diagnostics: Diagnostic[] = [];
    const out = fresh('out');
    expect(await emitToDirectory({ sources: [source] }, { out, full: true }, diagnostics)).toBeUndefined();
    const found = diagnostics.filter((d) => d.code === 'inline-secret').map((d) => d.message);
    expect(found.some((m) => m.startsWith('fleet/cluster-1/4-resources/Node.'))).toBe(true);
    expect(found.some((m) => m.startsWith('fleet/cluster-99/4-resources/Node.'))).toBe(true);
    for (const m of found) expect(m).not.toContain(token);
    expect(existsSync(out)).toBe(false);
  });
});

describe('a read-only output or checkout (#33 item 7)', () => {
  const file = definitionFile(fleet(3));
  const changed = definitionFile(fleet(3, { changedMember: 1 }));
  /** What the kernel answers on a read-only mount, for every call that would write. */
  const readOnly = (): FileSystemOps => {
    const refuse = (syscall: string) => (path: string) => {
      throw Object.assign(new Error(`EROFS: read-only file system, ${syscall} '${path}'`), { code: 'EROFS', errno: -30, syscall, path });
    };
    return {
      writeFileSync: refuse('open'),
      renameSync: refuse('rename'),
      rmSync: refuse('rm'),
      mkdirSync: refuse('mkdir'),
      linkSync: refuse('link'),
      accessSync: refuse('access'),
    };
  };
  const snapshot = (dir: string) => JSON.stringify([...readdirSync(dir, { recursive: true })].sort());

  test('synth into a read-only output is the read-only file system, naming the output, and changes nothing', async () => {
    const parent = fresh('parent');
    const out = join(parent, 'dist');
    await synth([file], { out });
    const before = snapshot(parent);
    const err = await emitToDirectory([changed], { out, full: true, fs: readOnly() }, []).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'EROFS' });
    expect(fileSystemDiagnostic((err as { path: string }).path, 'write', err).message).toBe(`cannot write "${out}": read-only file system`);
    expect(snapshot(parent)).toBe(before);
  });

  test('--check needs no write at all: it compares a read-only checkout, stale or not, and creates nothing', async () => {
    const parent = fresh('parent');
    const out = join(parent, 'dist');
    await synth([file], { out });
    rmSync(join(parent, '.dist.clusterset'), { recursive: true });
    const before = snapshot(parent);
    expect((await emitToDirectory([file], { out, full: true, check: true, fs: readOnly() }, []))?.stale).toEqual([]);
    expect((await emitToDirectory([changed], { out, full: true, check: true, fs: readOnly() }, []))?.stale.length).toBeGreaterThan(0);
    expect(snapshot(parent)).toBe(before);
  });
});

describe('a run that fails half-way (a full disk), not killed', () => {
  const v1 = definitionFile(fleet(4));
  const v2 = definitionFile(fleet(4, { changedMember: 2 }));
  /** Real calls, until the n-th call of one kind fails as a full disk does. */
  const failing = (kind: 'linkSync' | 'writeFileSync', after: number): FileSystemOps => {
    let calls = 0;
    const enospc = (path: string) => Object.assign(new Error(`ENOSPC: no space left on device, '${path}'`), { code: 'ENOSPC', path });
    return {
      writeFileSync: (p, d) => {
        if (kind === 'writeFileSync' && p.includes('/next/') && calls++ >= after) throw enospc(p);
        writeFileSync(p, d);
      },
      renameSync: (a, b) => nodeFs.renameSync(a, b),
      rmSync: (p, o) => rmSync(p, o),
      mkdirSync: (p, o) => void mkdirSync(p, o),
      linkSync: (a, b) => {
        if (kind === 'linkSync' && calls++ >= after) throw enospc(b);
        nodeFs.linkSync(a, b);
      },
      accessSync: (p, m) => nodeFs.accessSync(p, m),
    };
  };

  test.each([
    { name: 'while linking the output into the next tree', kind: 'linkSync' as const, spare: false },
    { name: 'while writing a changed file into the next tree', kind: 'writeFileSync' as const, spare: true },
  ])('$name: the output stays, and the next run equals a full synth', async ({ kind, spare }) => {
    const parent = fresh('parent');
    const out = join(parent, 'dist');
    await synth([v1], { out });
    if (!spare) rmSync(join(parent, '.dist.clusterset'), { recursive: true });
    const old = contents(tree(out));
    await expect(emitToDirectory([v2], { out, full: true, fs: failing(kind, 3) }, [])).rejects.toMatchObject({ code: 'ENOSPC' });
    expect(contents(tree(out))).toEqual(old);
    await synth([v2], { out });
    // at the same depth: manifest.json names the definition relative to the output's parent
    const full = join(fresh('full'), 'dist');
    await synth([v2], { out: full, rebuild: true });
    expect(contents(tree(out))).toEqual(contents(tree(full)));
  });
});
