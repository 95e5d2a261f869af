import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { linkSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Diagnostic } from '../../src/diagnostics/diagnostic';
import { runClis, runClisInOneProcess, type CliRun } from '../helpers/cli-process';
import { runCli as runInProcess } from '../helpers/run-cli';
import { LATEST } from '../helpers/releases';
import { SOAK, soakRows } from '../helpers/soak';

// #37 item 1: a pull request adds files to clustersets/ that are not what they seem: symbolic links
// into /proc, to files outside the repository or outside the definitions' folder (where CI may have
// written credentials), to devices; FIFOs, sockets, folders and links that loop; and TypeScript
// definitions that import through such links. Each is refused at the file (or at the import) with
// a hint, no command blocks or crashes on it, the other definitions are still checked, and no text
// of a file that is not a definition reaches any output: the canary below is in the CLI's
// environment and in every file outside the folder, and must appear nowhere.

const CANARY = `canary-${randomBytes(8).toString('hex')}`;
const tmp = mkdtempSync(join(tmpdir(), 'hostile-files-'));
const repo = join(tmp, 'repo');
const dir = join(repo, 'clustersets');
const outside = join(tmp, 'outside');
let socket: Server | undefined;

const definition = (name: string) => `apiVersion: antrea-clusterset/v1alpha1
kind: ClusterSetDefinition
metadata: { name: ${name} }
spec:
  antrea: { version: ${LATEST} }
  leader: { clusterID: ${name}-north, server: "https://172.18.0.1:6443" }
  clusters:
    - { clusterID: ${name}-north, member: false }
    - { clusterID: ${name}-east, serviceCIDR: 10.96.0.0/16, gateways: [{ node: east-1 }, { node: east-2 }] }
    - { clusterID: ${name}-west, serviceCIDR: 10.112.0.0/16, gateways: [{ node: west-1 }, { node: west-2 }] }
`;
const secret = `token: ${CANARY}\nmetadata: ${CANARY}\n`;
const at = (name: string) => join(dir, name);

/** Each hostile entry of clustersets/: how it is made and the diagnostic it must get. */
const CORPUS: readonly {
  readonly name: string;
  readonly make: (path: string) => void;
  readonly code: Diagnostic['code'];
  readonly line: number;
  readonly message: RegExp;
}[] = [
  { name: 'environ.yaml', make: (p) => symlinkSync('/proc/self/environ', p), code: 'file-system', line: 1, message: /leaves its folder/ },
  { name: 'outside.yaml', make: (p) => symlinkSync(join(outside, 'secret.yaml'), p), code: 'file-system', line: 1, message: /leaves its folder/ },
  // inside the repository but outside the definitions' folder: where CI steps write credentials
  { name: 'workspace.yaml', make: (p) => symlinkSync('../credentials.yaml', p), code: 'file-system', line: 1, message: /leaves its folder/ },
  { name: 'null.yaml', make: (p) => symlinkSync('/dev/null', p), code: 'file-system', line: 1, message: /leaves its folder/ },
  { name: 'zero.yaml', make: (p) => symlinkSync('/dev/zero', p), code: 'file-system', line: 1, message: /leaves its folder/ },
  { name: 'fifo.yaml', make: (p) => execFileSync('mkfifo', [p]), code: 'file-system', line: 1, message: /FIFO/ },
  { name: 'socket.yaml', make: () => undefined, code: 'file-system', line: 1, message: /socket/ },
  { name: 'loop.yaml', make: (p) => symlinkSync('loop.yaml', p), code: 'file-system', line: 1, message: /symbolic links/ },
  { name: 'self.yaml', make: (p) => symlinkSync('.', p), code: 'file-system', line: 1, message: /directory/ },
  { name: 'folder.yaml', make: (p) => mkdirSync(p), code: 'file-system', line: 1, message: /directory/ },
  { name: 'dangling.yaml', make: (p) => symlinkSync('missing.yaml', p), code: 'file-system', line: 1, message: /no such file/ },
  // #48 item 7: a hard link is a regular file whose real path is inside, and another file's text
  { name: 'hard.yaml', make: (p) => linkSync(join(outside, 'secret.yaml'), p), code: 'file-system', line: 1, message: /hard link/ },
  {
    name: 'hard-import.ts',
    make: (p) => {
      linkSync(join(outside, 'secret.json'), join(dir, 'hard.json'));
      writeFileSync(
        p,
        `// hard.json is a second name of a file outside the repository\nimport secret from './hard.json';\nthrow new Error(JSON.stringify(secret));\n`,
      );
    },
    code: 'typescript-evaluation',
    line: 2,
    message: /hard link/,
  },
  // a TypeScript definition that imports through a link out of the folder, statically or by a computed path
  {
    name: 'proc-import.ts',
    make: (p) =>
      writeFileSync(
        p,
        `// reads its own environment through clustersets/p -> /proc\nimport environ from './p/self/environ';\nthrow new Error(String(environ));\n`,
      ),
    code: 'typescript-evaluation',
    line: 2,
    message: /leaves its folder/,
  },
  {
    name: 'json-import.ts',
    make: (p) =>
      writeFileSync(p, `// secret.json -> a file outside the repository\nimport secret from './secret.json';\nthrow new Error(JSON.stringify(secret));\n`),
    code: 'typescript-evaluation',
    line: 2,
    message: /leaves its folder/,
  },
  {
    name: 'ppid-environ.ts',
    make: (p) =>
      writeFileSync(
        p,
        "declare const require: any, process: any;\n// the CLI's own environment (CI's secrets) through clustersets/p -> /proc\nthrow new Error(require('node:fs').readFileSync('./p/' + process.ppid + '/environ', 'utf8'));\n",
      ),
    code: 'typescript-evaluation',
    line: 3,
    message: /node:fs/,
  },
];

/** A folder of `<name>.yaml` entries no reader may open: a link to the kernel's state, a link out of the repository, a FIFO. */
function hostileFolder(folder: string, [proc, out, fifo]: readonly [string, string, string]): void {
  mkdirSync(folder);
  symlinkSync('/proc/self/environ', join(folder, `${proc}.yaml`));
  symlinkSync(join(outside, 'secret.yaml'), join(folder, `${out}.yaml`));
  execFileSync('mkfifo', [join(folder, `${fifo}.yaml`)]);
}

const outputs = new Map<string, CliRun>();
/**
 * Every command that reads definitions, in each of its output formats: a process each, since
 * a regression blocks on the FIFO. npm test runs every command in text and validate in json (the
 * diagnostics below); the github formats print the same diagnostics (test/hostile/output-formats.test.ts
 * holds every format to its reader) and run in the soak tier (test/helpers/soak.ts), as does
 * synth --check, which reads the definitions by the same pipeline as synth
 * (`pipeline` in src/pipeline/pipeline.ts).
 */
const COMMANDS: readonly (readonly string[])[] = soakRows(
  [
    ['validate'],
    ['validate', '--format', 'json'],
    ['validate', '--format', 'github'],
    ['synth', '--check'],
    ['synth'],
    ['plan', '--base', 'HEAD'],
    ['plan', '--base', 'HEAD', '--format', 'github'],
    ['status', '--from', 'saved'],
  ],
  (args) => !args.includes('github') && !args.includes('--check'),
);

/**
 * The commands of the rows below that read other folders (a definitions folder that is a link out,
 * dumps, saved objects): in npm test in the same process as COMMANDS, after them (their folders
 * are made before; no command of COMMANDS reads them), in the soak tier a process each.
 */
const ELSEWHERE = ['validate', '--format', 'json', 'elsewhere'];
const DUMPS = [
  ['import', 'dumps'],
  ['plan', '--live', 'dumps', 'clustersets/good.yaml'],
];
const STATUS = ['status', '--from', 'saved-status', 'clustersets/good.yaml'];
const LATER = [ELSEWHERE, ...DUMPS, STATUS];

beforeAll(async () => {
  mkdirSync(dir, { recursive: true });
  mkdirSync(outside);
  mkdirSync(join(repo, 'saved'));
  writeFileSync(join(outside, 'secret.yaml'), secret);
  writeFileSync(join(outside, 'secret.json'), JSON.stringify({ token: CANARY }));
  writeFileSync(join(repo, 'credentials.yaml'), secret);
  writeFileSync(at('good.yaml'), definition('good'));
  // a link that stays inside the folder is a definition like any other
  mkdirSync(at('within'));
  writeFileSync(at('within/target.yaml'), definition('linked'));
  symlinkSync('within/target.yaml', at('linked.yaml'));
  writeFileSync(at('broken.yaml'), definition('broken').replace('serviceCIDR', 'serviceCIRD'));
  symlinkSync('/proc', at('p'));
  symlinkSync(join(outside, 'secret.json'), at('secret.json'));
  const git = (...args: string[]) => execFileSync('git', ['-c', 'user.email=t@example.com', '-c', 'user.name=t', ...args], { cwd: repo, stdio: 'pipe' });
  git('init', '-q', '-b', 'main');
  git('add', 'clustersets/good.yaml');
  git('commit', '-qm', 'base');
  for (const entry of CORPUS) entry.make(at(entry.name));
  socket = createServer();
  await new Promise<void>((listening) => socket!.listen(at('socket.yaml'), listening));
  symlinkSync(outside, join(repo, 'elsewhere'));
  hostileFolder(join(repo, 'dumps'), ['environ', 'outside', 'fifo']);
  hostileFolder(join(repo, 'saved-status'), ['good-north', 'good-east', 'good-west']);
  // npm test runs the commands one after the other in one process (a start-up of the CLI for all;
  // one that blocks or crashes fails every row), the soak tier a process each
  const all = [...COMMANDS, ...LATER];
  const runs = SOAK
    ? await runClis(
        all.map((args) => ({ args, cwd: repo, env: { CLUSTERSET_CANARY: CANARY } })),
        60_000,
      )
    : await runClisInOneProcess(all, { cwd: repo, env: { CLUSTERSET_CANARY: CANARY }, limitMs: 180_000 });
  all.forEach((args, i) => outputs.set(args.join(' '), runs[i]!));
}, 600_000);
afterAll(async () => {
  await new Promise((closed) => (socket ? socket.close(closed) : closed(undefined)));
  rmSync(tmp, { recursive: true, force: true });
});

describe('hostile files in clustersets/', () => {
  test.each(COMMANDS.map((args) => ({ command: args.join(' ') })))(
    '$command ends by itself, fails, and prints no text of a file that is not a definition',
    ({ command }) => {
      const run = outputs.get(command)!;
      expect(run.killed, `${command} did not end within its limit`).toBe(false);
      expect(run.signal).toBe(null);
      expect(`${run.stdout}${run.stderr}`).not.toContain(CANARY);
      expect(`${run.stdout}${run.stderr}`).not.toMatch(/\n\s+at .*\(.*:\d+:\d+\)/); // no stack trace
      expect(run.code).toBe(1);
    },
  );

  const diagnostics = () => (JSON.parse(outputs.get('validate --format json')!.stdout) as { diagnostics: Diagnostic[] }).diagnostics;

  test.each(CORPUS)('$name is refused at its file, with a hint', ({ name, code, line, message }) => {
    const found = diagnostics().filter((d) => d.file === `clustersets/${name}`);
    expect(found).toEqual([
      expect.objectContaining({ code, severity: 'error', line, message: expect.stringMatching(message) as unknown, hint: expect.any(String) as unknown }),
    ]);
  });

  test('the other definitions are checked: the linked one inside the folder loads, the broken one is reported', () => {
    const all = diagnostics();
    expect(all.filter((d) => d.file === 'clustersets/good.yaml' || d.file === 'clustersets/linked.yaml')).toEqual([]);
    expect(all.some((d) => d.file === 'clustersets/broken.yaml' && d.severity === 'error')).toBe(true);
  });

  test('a refused file gets no code frame', () => {
    const text = outputs.get('validate')!.stderr;
    // each refused file's diagnostic is followed by its hint, never by a numbered source line
    for (const { name } of CORPUS.filter((c) => c.code === 'file-system')) expect(text).not.toMatch(new RegExp(`clustersets/${name}:1:1:.*\\n\\s+1 \\|`));
  });

  test('a definitions folder that is a link out of the repository is refused file by file', () => {
    const run = outputs.get(ELSEWHERE.join(' '))!;
    expect(run.killed, 'validate elsewhere did not end within its limit').toBe(false);
    expect(run.stdout).not.toContain(CANARY);
    // both of the folder's files are definitions (.json is read as YAML), and both are refused unread
    expect((JSON.parse(run.stdout) as { diagnostics: Diagnostic[] }).diagnostics).toEqual(
      ['elsewhere/secret.json', 'elsewhere/secret.yaml'].map(
        (file): unknown =>
          expect.objectContaining({ code: 'file-system', file, line: 1, message: expect.stringMatching(/leaves the repository/) as unknown }) as unknown,
      ),
    );
  });

  test('cluster dumps are read the same way: import and plan --live refuse a link out of the folder and a FIFO, unread', () => {
    for (const args of DUMPS) {
      const run = outputs.get(args.join(' '))!;
      expect(run.killed, `${args.join(' ')} did not end within its limit`).toBe(false);
      expect(`${run.stdout}${run.stderr}`).not.toContain(CANARY);
      for (const name of ['environ', 'outside', 'fifo']) expect(run.stderr).toMatch(new RegExp(`dumps/${name}\\.yaml:1:1: error file-system: `));
    }
  });

  test('plan reads the base revision as the work tree is read: a link inside the folder is followed, one that leaves is refused unread', async () => {
    const repo2 = join(tmp, 'repo-links');
    mkdirSync(join(repo2, 'clustersets', 'within'), { recursive: true });
    writeFileSync(join(repo2, 'clustersets', 'within', 'target.yaml'), definition('linked'));
    symlinkSync('within/target.yaml', join(repo2, 'clustersets', 'linked.yaml'));
    symlinkSync(join(outside, 'secret.yaml'), join(repo2, 'clustersets', 'outside.yaml'));
    const git = (...args: string[]) => execFileSync('git', ['-c', 'user.email=t@example.com', '-c', 'user.name=t', ...args], { cwd: repo2, stdio: 'pipe' });
    git('init', '-q', '-b', 'main');
    git('add', '-A');
    git('commit', '-qm', 'base');
    // in process: this repository holds nothing a read could block on (no FIFO, no device)
    const run = await runInProcess(['plan', '--base', 'HEAD', 'clustersets'], { cwd: repo2, env: { CLUSTERSET_CANARY: CANARY } });
    expect(`${run.stdout}${run.stderr}`).not.toContain(CANARY);
    // the same diagnostics for the base and the head: the linked definition loads on both sides, the link out is refused on both
    const errors = `${run.stdout}${run.stderr}`;
    expect(errors).not.toMatch(/linked\.yaml:\d+:\d+: error/);
    for (const side of ['', 'HEAD:'])
      expect(errors).toMatch(new RegExp(`(^|\\n)${side}clustersets/outside\\.yaml:1:1: error file-system: [^\\n]*leaves its folder`));
    expect(errors).not.toMatch(/^\s+1 \| /m); // no code frame: nothing of a link's target is shown
    expect(errors).not.toContain('clusterset-plan-'); // the base's files by `HEAD:<path>`, never by the temporary copy's
  });

  test('status --from reads saved objects the same way: a link out of the folder and a FIFO are refused, unread', () => {
    const run = outputs.get(STATUS.join(' '))!;
    expect(run.killed, 'status --from did not end within its limit').toBe(false);
    expect(`${run.stdout}${run.stderr}`).not.toContain(CANARY);
    expect(run.code).toBe(1);
    for (const id of ['good-north', 'good-east', 'good-west']) expect(run.stdout).toMatch(new RegExp(`${id}\\.yaml.*(leaves its folder|kernel's state|FIFO)`));
  });
});
