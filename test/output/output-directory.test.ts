import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import * as nodeFs from 'node:fs';
import { join, sep } from 'node:path';
import { describe, expect, test } from 'vitest';
import { fleet } from '../../bench/fleet';
import type { Diagnostic } from '../../src/diagnostics/diagnostic';
import { fileSystemDiagnostic } from '../../src/diagnostics/file-system';
import { loadYaml } from '../../src/load/load-yaml';
import type { ClusterSetInput } from '../../src/model/clusterset';
import type { FileSystemOps } from '../../src/output/file-system-ops';
import { OutputError } from '../../src/output/output-error';
import { contents, outputToDirectory, scratch, synth, tree } from './output-fixture';

// The output directory as a place: a second run is kept out, leftovers of older versions are
// cleaned, what is emitted has limits, and a read-only or full disk changes nothing.
// (output-incremental.test.ts: incremental runs over time.)

const { tmp, fresh, definitionFile } = scratch('clusterset-output-');

describe('the output directory is ours alone', () => {
  const file = definitionFile(fleet(3));

  test('a second run while one holds the lock is refused, naming the process', async () => {
    const out = fresh('out');
    const state = join(tmp, `.${out.split(sep).pop()!}.clusterset`);
    mkdirSync(state, { recursive: true });
    // the parent of this test process is alive for as long as the test runs
    writeFileSync(join(state, 'lock'), `${process.ppid} x`);
    await expect(outputToDirectory([file], { out, full: true }, [])).rejects.toThrow(OutputError);
    await expect(outputToDirectory([file], { out, full: true }, [])).rejects.toThrow(new RegExp(`another clusterset process \\(pid ${process.ppid}\\)`));
    expect(existsSync(out)).toBe(false);
  });

  test('a lock left by a process that is gone is taken over', async () => {
    const out = fresh('out');
    const state = join(tmp, `.${out.split(sep).pop()!}.clusterset`);
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

  // the state folder is refused where git tracks it (test/hostile/untrusted-output.test.ts, a
  // repository's own .git above it); git is not started where no repository can be found
  // (output-recovery.ts `mayBeInRepository`), so each way git finds one must still start it
  test.each([
    { how: 'a .git file (a linked work tree, a submodule)', env: false },
    { how: 'GIT_DIR and GIT_WORK_TREE, no .git above it', env: true },
  ])('a state folder tracked through $how is refused, and nothing is touched', async ({ env }) => {
    const parent = fresh('tracked');
    const out = join(parent, 'dist');
    await synth([file], { out });
    const gitDir = fresh('git-dir');
    const git = (...args: string[]) =>
      execFileSync('git', ['-c', 'user.email=t@example.com', '-c', 'user.name=t', ...args], {
        cwd: parent,
        stdio: 'pipe',
        env: { ...process.env, GIT_DIR: gitDir, GIT_WORK_TREE: parent },
      });
    if (env) execFileSync('git', ['init', '-q', '--bare', gitDir], { stdio: 'pipe' });
    else execFileSync('git', ['init', '-q', `--separate-git-dir=${gitDir}`, parent], { stdio: 'pipe' });
    git('add', '-f', '.dist.clusterset');
    git('commit', '-qm', 'state');
    const before = contents(tree(parent));
    const saved = { GIT_DIR: process.env.GIT_DIR, GIT_WORK_TREE: process.env.GIT_WORK_TREE };
    try {
      if (env) Object.assign(process.env, { GIT_DIR: gitDir, GIT_WORK_TREE: parent });
      for (const check of [false, true])
        await expect(outputToDirectory([file], { out, full: true, check }, []), check ? '--check' : 'synth').rejects.toThrow(/tracked by git/);
    } finally {
      for (const [k, v] of Object.entries(saved)) {
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
      }
    }
    expect(contents(tree(parent))).toEqual(before);
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
    // the no-argument read is deprecated for its race with workers; this file's workers set no mask
    // eslint-disable-next-line @typescript-eslint/no-deprecated
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
    await outputToDirectory([file], { out, full: true }, diagnostics);
    expect(diagnostics.some((d) => d.severity === 'error' && /would be \d+ bytes, more than the 1048576/.test(d.message))).toBe(true);
    expect(existsSync(out)).toBe(false);
  });
});

describe('a secret in a bundle', () => {
  // the definition's text is scanned first (inline-secret); this is the second line: a secret that
  // reaches a bundle by any route stops the run, whichever batch of bundles it is scanned in
  test('is an inline-secret error naming the file, wherever it is in a fleet, and nothing is written', async () => {
    // the output is scanned in batches of 1 MiB (pipeline.ts SCAN_BATCH_BYTES) and a member's own
    // files are about 16 kB: about 67 members fill a batch, so a hundred make two, cluster-1 in the
    // first and cluster-99 in the second (forty fit in one)
    const file = definitionFile(fleet(100));
    const source = loadYaml(file, readFileSync(file, 'utf8'), [])!;
    // a Slack token is a valid Kubernetes name: only the output's scan can stop it
    // eslint-disable-next-line @typescript-eslint/no-unnecessary-template-expression -- split so secret scanners skip the fixture
    const token = `xoxb-${'1234567890-1234567890-abcdefghijklmnopqrstuvwx'}`;
    // past the definition's scan (its text has no token): node names reach the member's own files (its Gateway Node object)
    const clusters = (source.data as { spec: { clusters: { clusterID: string; gateways: { node: string }[] }[] } }).spec.clusters;
    for (const id of ['cluster-1', 'cluster-99']) clusters.find((c) => c.clusterID === id)!.gateways[0]!.node = `gw-${token}`;
    const diagnostics: Diagnostic[] = [];
    const out = fresh('out');
    expect(await outputToDirectory({ sources: [source] }, { out, full: true }, diagnostics)).toBeUndefined();
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
    const err = await outputToDirectory([changed], { out, full: true, fs: readOnly() }, []).catch((e: unknown) => e);
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
    expect((await outputToDirectory([file], { out, full: true, check: true, fs: readOnly() }, []))?.stale).toEqual([]);
    expect((await outputToDirectory([changed], { out, full: true, check: true, fs: readOnly() }, []))?.stale.length).toBeGreaterThan(0);
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
    await expect(outputToDirectory([v2], { out, full: true, fs: failing(kind, 3) }, [])).rejects.toMatchObject({ code: 'ENOSPC' });
    expect(contents(tree(out))).toEqual(old);
    await synth([v2], { out });
    // at the same depth: manifest.json names the definition relative to the output's parent
    const full = join(fresh('full'), 'dist');
    await synth([v2], { out: full, rebuild: true });
    expect(contents(tree(out))).toEqual(contents(tree(full)));
  });
});
