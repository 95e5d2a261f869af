import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readlinkSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Diagnostic } from '../../src/diagnostics/diagnostic';
import { printable, printableLines } from '../../src/diagnostics/printable';
import { runCli as runInProcess } from '../helpers/run-cli';
import { runClisInOneProcess } from '../helpers/cli-process';
import { unprintables, workflowCommands } from '../helpers/ci-log';
import { LATEST } from '../helpers/releases';
import { SOAK } from '../helpers/soak';

// #48 items 2 and 3: every file we did not write is untrusted. A pull request can commit the output
// state folder (`.dist.clusterset/`) with records that name any path, and anything under `dist/`:
// links (to /dev/zero, to folders outside), FIFOs, names that are workflow commands or terminal
// sequences. Each is refused or named, never read, followed or printed as it is, and nothing
// outside the output is touched.

const tmp = mkdtempSync(join(tmpdir(), 'untrusted-output-'));
const base = join(tmp, 'base');
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const definition = `apiVersion: antrea-clusterset/v1alpha1
kind: ClusterSetDefinition
metadata: { name: fleet }
spec:
  antrea: { version: ${LATEST} }
  leader: { clusterID: north, server: "https://172.18.0.1:6443" }
  clusters:
    - { clusterID: north, member: false }
    - { clusterID: east, serviceCIDR: 10.96.0.0/16, gateways: [{ node: east-1 }, { node: east-2 }] }
    - { clusterID: west, serviceCIDR: 10.112.0.0/16, gateways: [{ node: west-1 }, { node: west-2 }] }
`;

const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', ['-c', 'user.email=t@example.com', '-c', 'user.name=t', ...args], { cwd, stdio: 'pipe', encoding: 'utf8' });

let n = 0;
/** A copy of the synthesized repository (dist/ and its state folder committed by a synth), and a folder outside it. */
function repository(): { repo: string; out: string; state: string; outside: string } {
  const root = join(tmp, `case-${n++}`);
  const repo = join(root, 'repo');
  cpSync(base, repo, { recursive: true, verbatimSymlinks: true });
  const outside = join(root, 'outside');
  mkdirSync(outside);
  writeFileSync(join(outside, 'victim.txt'), 'keep me\n');
  return { repo, out: join(repo, 'dist'), state: join(repo, '.dist.clusterset'), outside };
}

/**
 * Every path under a folder with what a write changes (links as their targets, never followed):
 * a file's inode, size and modification time to the nanosecond, so a file rewritten even with
 * the same bytes counts as touched, without reading the repository's hundreds of files each time.
 */
function snapshot(dir: string): Record<string, string> {
  const found: Record<string, string> = {};
  for (const rel of readdirSync(dir, { recursive: true }) as string[]) {
    const stats = lstatSync(join(dir, rel), { bigint: true });
    found[rel] = stats.isSymbolicLink()
      ? `-> ${readlinkSync(join(dir, rel))}`
      : stats.isFile()
        ? `${stats.ino} ${stats.size} ${stats.mtimeNs}`
        : stats.isDirectory()
          ? '/'
          : '?';
  }
  return found;
}

beforeAll(async () => {
  mkdirSync(join(base, 'clustersets'), { recursive: true });
  writeFileSync(join(base, 'clustersets', 'fleet.yaml'), definition);
  writeFileSync(join(base, 'README.md'), 'the repository\n');
  git(base, 'init', '-q', '-b', 'main');
  const run = await runInProcess(['synth', '--quiet'], { cwd: base });
  expect(run.status, run.stderr).toBe(0);
  git(base, 'add', '-A');
  git(base, 'commit', '-qm', 'synth');
}, 120_000);

const diagnosticsOf = (stdout: string) => (JSON.parse(stdout) as { diagnostics: Diagnostic[] }).diagnostics;

describe('the state folder is refused when its records name paths outside the output (#48 item 2)', () => {
  const JOURNAL = '.dist.clusterset/journal.json';
  const ROWS: readonly {
    readonly name: string;
    readonly file: string;
    readonly record: (c: ReturnType<typeof repository>) => unknown;
    readonly prepare?: (c: ReturnType<typeof repository>) => void;
  }[] = [
    {
      name: 'a delete that climbs out of the output',
      file: JOURNAL,
      record: (c) => ({ deletes: [`../../${relative(join(c.repo, '..'), c.outside)}/victim.txt`], moves: [] }),
    },
    { name: 'a delete of the repository beside the output', file: JOURNAL, record: () => ({ deletes: ['../clustersets'], moves: [] }) },
    { name: 'an absolute delete', file: JOURNAL, record: (c) => ({ deletes: [join(c.outside, 'victim.txt')], moves: [] }) },
    { name: 'a delete holding NUL', file: JOURNAL, record: () => ({ deletes: ['fleet\u0000/README.md'], moves: [] }) },
    {
      name: 'a delete through a link the pull request committed into dist/',
      file: JOURNAL,
      prepare: (c) => symlinkSync(c.outside, join(c.out, 'fleet', 'away')),
      record: () => ({ deletes: ['fleet/away/victim.txt'], moves: [] }),
    },
    // staging/../../README.md is the repository's README: moved out of the repository
    { name: 'a move of a repository file out of it', file: JOURNAL, record: () => ({ deletes: [], moves: ['../../README.md'] }) },
    {
      name: 'a move through a link in the staging folder',
      file: JOURNAL,
      prepare: (c) => {
        mkdirSync(join(c.state, 'staging'), { recursive: true });
        symlinkSync(join(c.repo, 'clustersets'), join(c.state, 'staging', 'fleet'));
      },
      record: () => ({ deletes: [], moves: ['fleet/fleet.yaml'] }),
    },
    { name: 'a spare record whose paths climb out', file: '.dist.clusterset/spare.json', record: () => ({ base: 'x', differs: ['../README.md'] }) },
    { name: 'a commit record whose paths are absolute', file: '.dist.clusterset/commit.json', record: () => ({ base: 'x', differs: ['/etc'] }) },
  ];

  test.each(ROWS)('$name: synth and synth --check refuse it at the record, and nothing is touched', async (row) => {
    const c = repository();
    row.prepare?.(c);
    mkdirSync(c.state, { recursive: true });
    writeFileSync(join(c.repo, row.file), JSON.stringify(row.record(c)));
    const before = { repo: snapshot(c.repo), outside: snapshot(c.outside) };
    for (const args of [
      ['synth', '--format', 'json'],
      ['synth', '--check', '--format', 'json'],
    ]) {
      const run = await runInProcess(args, { cwd: c.repo });
      expect(run.status, `${args.join(' ')}: ${run.stderr}`).toBe(2);
      expect(diagnosticsOf(run.stdout)).toEqual([
        expect.objectContaining({ code: 'file-system', severity: 'error', file: row.file, hint: expect.any(String) as unknown }),
      ]);
      expect({ repo: snapshot(c.repo), outside: snapshot(c.outside) }).toEqual(before);
    }
  });

  test('a state folder tracked by git is refused, by synth and by synth --check, and nothing is touched', async () => {
    const c = repository();
    // the records a real synth left, committed on purpose (git ignores the folder otherwise)
    expect(git(c.repo, 'status', '--porcelain', '--ignored', '.dist.clusterset')).toMatch(/^!! \.dist\.clusterset\//);
    git(c.repo, 'add', '-f', '.dist.clusterset');
    git(c.repo, 'commit', '-qm', 'state');
    const before = snapshot(c.repo);
    for (const args of [
      ['synth', '--format', 'json'],
      ['synth', '--check', '--format', 'json'],
    ]) {
      const run = await runInProcess(args, { cwd: c.repo });
      expect(run.status, `${args.join(' ')}: ${run.stderr}`).toBe(2);
      expect(diagnosticsOf(run.stdout)).toEqual([
        expect.objectContaining({
          code: 'file-system',
          file: '.dist.clusterset',
          message: expect.stringMatching(/tracked by git/) as unknown,
          hint: expect.stringMatching(/git rm -r --cached/) as unknown,
        }),
      ]);
    }
    expect(snapshot(c.repo)).toEqual(before);
  });

  test('a dist/ that is a symbolic link (to a folder outside) is refused by synth and synth --check, and its target is untouched', async () => {
    const c = repository();
    cpSync(c.out, join(c.outside, 'dist'), { recursive: true });
    rmSync(c.out, { recursive: true });
    symlinkSync(join(c.outside, 'dist'), c.out);
    const before = snapshot(c.outside);
    for (const args of [
      ['synth', '--format', 'json'],
      ['synth', '--check', '--format', 'json'],
    ]) {
      const run = await runInProcess(args, { cwd: c.repo });
      expect(run.status, `${args.join(' ')}: ${run.stderr}`).toBe(2);
      expect(diagnosticsOf(run.stdout)).toEqual([
        expect.objectContaining({
          code: 'file-system',
          file: 'dist',
          message: expect.stringMatching(/symbolic link/) as unknown,
          hint: expect.any(String) as unknown,
        }),
      ]);
    }
    expect(snapshot(c.outside)).toEqual(before);
  });

  test('the records a synth writes pass: an older version’s journal inside the output is still finished', async () => {
    const c = repository();
    writeFileSync(join(c.out, 'fleet', 'stray.yaml'), 'x: 1\n');
    writeFileSync(join(c.state, 'journal.json'), JSON.stringify({ deletes: ['fleet/stray.yaml'], moves: [] }));
    const run = await runInProcess(['synth', '--quiet'], { cwd: c.repo });
    expect(run.status, run.stderr).toBe(0);
    expect(existsSync(join(c.out, 'fleet', 'stray.yaml'))).toBe(false);
    expect(existsSync(join(c.state, 'journal.json'))).toBe(false);
  });
});

describe('a workflow command after any white space the runner trims (#48 item 3)', () => {
  // .NET's Char.IsWhiteSpace, which String.TrimStart() trims (ActionCommand.TryParseV2)
  const WHITE_SPACE = [
    '\u0020',
    '\u0009',
    '\u000b',
    '\u000c',
    '\u0085',
    '\u00a0',
    '\u1680',
    '\u2000',
    '\u2003',
    '\u200a',
    '\u2028',
    '\u2029',
    '\u202f',
    '\u205f',
    '\u3000',
  ];
  test.each(WHITE_SPACE.map((ws) => ({ ws, code: `U+${ws.charCodeAt(0).toString(16).padStart(4, '0')}` })))(
    '$code then ::error: the runner reads a command; printable and printableLines leave none',
    ({ ws }) => {
      // the model first: it must see the raw line as the runner does, or the rows below prove nothing
      expect(workflowCommands(`${ws}::error::forged`).map((c) => c.command)).toEqual(['error']);
      expect(workflowCommands(`${ws}${ws}::error::forged`).map((c) => c.command)).toEqual(['error']);
      for (const text of [`${ws}::error::forged`, `${ws}${ws}::warning::forged`, ` ${ws}::add-mask::x`]) {
        expect(workflowCommands(printable(text)), JSON.stringify(text)).toEqual([]);
        expect(workflowCommands(printableLines(`line\n${text}\n${text}`)), JSON.stringify(text)).toEqual([]);
      }
    },
  );

  test('a character that is not white space to the runner (a zero-width space) is escaped as unprintable, and no command either', () => {
    expect(workflowCommands('\u200b::error::x')).toEqual([]);
    expect(printable('\u200b::error::x')).toBe('\\u200b::error::x');
  });
});

describe('names in dist/ are printed escaped (#48 item 3)', () => {
  const FORGERIES = [
    '::error title=forged::synth --check passed',
    '::add-mask::x',
    '##[error]forged',
    'a ##[warning]forged',
    // OSC 8 (a hyperlink; a file name holds no slash) and OSC 0 (the window title)
    '\u001b]8;;https:evil.example\u0007link\u001b]8;;\u0007',
    '\u001b]0;title\u0007',
    '\u001b[2Kerased',
    // the runner trims all Unicode white space before it looks for `::`
    '\u00a0::error::forged after a no-break space',
    '\u2003::error::forged after an em space',
    '\u3000::error::forged after an ideographic space',
    ' \t\u00a0::warning::mixed',
  ];

  /** synth --check in each format of a repository with files of these names in dist/, and the stale entries each named. */
  async function checked(names: readonly string[]) {
    const c = repository();
    // at the top of dist/, where the stale line starts with the name, and in a ClusterSet's folder
    for (const name of names) {
      writeFileSync(join(c.out, name), 'x: 1\n');
      writeFileSync(join(c.out, 'fleet', name), 'x: 1\n');
    }
    const runs = [];
    for (const format of ['text', 'github', 'json']) runs.push({ format, ...(await runInProcess(['synth', '--check', '--format', format], { cwd: c.repo })) });
    return runs;
  }
  /**
   * npm test puts every forged name in one dist/, checked once a format (each name is a file of
   * its own, and every one of them must be named); the soak tier (test/helpers/soak.ts) gives
   * each name a repository of its own, where one that fails shows alone.
   */
  let together: ReturnType<typeof checked> | undefined;

  test.each(FORGERIES.map((name) => ({ name, shown: JSON.stringify(name) })))(
    'a file named $shown: synth --check names it, and no line is a workflow command or holds a control',
    async ({ name }) => {
      for (const run of await (SOAK ? checked([name]) : (together ??= checked(FORGERIES)))) {
        expect(run.status, run.stderr).toBe(1);
        const printed = `${run.stdout}${run.stderr}`;
        expect(workflowCommands(printed)).toEqual([]);
        expect(unprintables(printed)).toEqual([]);
        // every file of a forged name is named, at the top of dist/ and in the ClusterSet's folder
        expect(run.stderr.match(/not generated/g)?.length, run.stderr).toBe(2 * (SOAK ? 1 : FORGERIES.length));
      }
    },
  );
});

describe('dist/ entries that are not regular files are named, never read or followed (#48 item 2)', () => {
  // in processes of their own with a limit: on a regression the CLI reads /dev/zero without end
  // or blocks on the FIFO, and the test fails at its limit instead of hanging
  const LIMIT = 60_000;
  const ROWS: readonly { readonly name: string; readonly make: (c: ReturnType<typeof repository>) => void; readonly entries: readonly RegExp[] }[] = [
    {
      name: 'a generated file replaced by a link to /dev/zero, and an extra one',
      make: (c) => {
        rmSync(join(c.out, 'fleet', 'README.md'));
        symlinkSync('/dev/zero', join(c.out, 'fleet', 'README.md'));
        symlinkSync('/dev/zero', join(c.out, 'fleet', 'zero.yaml'));
        symlinkSync('/dev/zero', join(c.out, 'manifest.json.link'));
      },
      entries: [/fleet\/README\.md \(a symbolic link/, /fleet\/zero\.yaml \(not generated; a symbolic link/],
    },
    {
      // another generated file than the link's row: in npm test the rows share one repository
      name: 'a generated file replaced by a FIFO, and an extra one',
      make: (c) => {
        rmSync(join(c.out, 'fleet', 'west', 'kustomization.yaml'));
        execFileSync('mkfifo', [join(c.out, 'fleet', 'west', 'kustomization.yaml'), join(c.out, 'fleet', 'pipe.yaml')]);
      },
      entries: [/fleet\/west\/kustomization\.yaml \(a FIFO/, /fleet\/pipe\.yaml \(not generated; a FIFO/],
    },
    {
      name: "a cluster's folder replaced by a link to a folder outside",
      make: (c) => {
        cpSync(join(c.out, 'fleet', 'east'), join(c.outside, 'east'), { recursive: true });
        writeFileSync(join(c.outside, 'east', 'victim.txt'), 'keep me\n');
        rmSync(join(c.out, 'fleet', 'east'), { recursive: true });
        symlinkSync(join(c.outside, 'east'), join(c.out, 'fleet', 'east'));
      },
      entries: [/fleet\/east \(a symbolic link/],
    },
  ];

  /** synth --check, then synth, in a CLI process with the limit, on a repository with the rows' entries made. */
  async function drill(rows: typeof ROWS) {
    const c = repository();
    for (const row of rows) row.make(c);
    const outside = snapshot(c.outside);
    // one process for the two (a start-up of the CLI), one after the other: a run that blocks
    // fails both
    const [check, synth] = await runClisInOneProcess([['synth', '--check'], ['synth']], { cwd: c.repo, limitMs: 2 * LIMIT });
    return { c, outside, check: check!, synth: synth! };
  }
  /**
   * npm test makes every row's entries in one repository, checked and synthesized once (an entry
   * that blocks or is followed fails every row); the soak tier (test/helpers/soak.ts) gives each row
   * a repository of its own, where one that fails shows alone.
   */
  let together: ReturnType<typeof drill> | undefined;

  test.each(ROWS)(
    '$name: synth --check ends and names it; synth ends, replaces it without touching its target, and the output is then up to date',
    async (row) => {
      const { c, outside, check, synth } = await (SOAK ? drill([row]) : (together ??= drill(ROWS)));
      expect(check.killed, 'synth --check did not end within its limit').toBe(false);
      expect(check.code, check.stderr).toBe(1);
      for (const entry of row.entries) expect(check.stderr).toMatch(entry);
      expect(synth.killed, 'synth did not end within its limit').toBe(false);
      expect(synth.code, synth.stderr).toBe(0);
      expect(synth.stderr).toMatch(/not a regular file|symbolic link|FIFO/);
      expect(snapshot(c.outside)).toEqual(outside);
      for (const rel of ['fleet/README.md', 'fleet/west/kustomization.yaml', 'fleet/east', 'fleet/east/kustomization.yaml'])
        expect(lstatSync(join(c.out, rel)).isSymbolicLink() || lstatSync(join(c.out, rel)).isFIFO(), rel).toBe(false);
      // nothing but folders and regular files is left, so the last check cannot block: in process
      const irregular = (readdirSync(c.out, { recursive: true }) as string[]).filter((rel) => {
        const stats = lstatSync(join(c.out, rel));
        return !stats.isFile() && !stats.isDirectory();
      });
      expect(irregular).toEqual([]);
      const again = await runInProcess(['synth', '--check'], { cwd: c.repo });
      expect(again.status, again.stderr).toBe(0);
    },
    240_000,
  );
});
