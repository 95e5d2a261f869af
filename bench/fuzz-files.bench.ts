// #37 items 1-2 at scale: generated definition folders of a pull request that hold, beside valid
// definitions, what is not one (links into /proc, to devices, out of the folder or the repository,
// chains of links that leave at the end, loops, FIFOs, sockets, folders named like definitions) and
// TypeScript definitions that import through such links or try to reach the process. Each folder
// is checked in this process (every output format rendered) and every 25th also through the CLI
// in a process of its own. Prints the counts; crashes, leaks, hangs, misses (a hostile entry
// that loaded) and false refusals (a legitimate one refused) must all be 0. `FUZZ_FILE_RUNS`
// changes the number of folders, `FUZZ_SEED` the sample.
import { execFileSync, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import fc from 'fast-check';
import { LATEST_RELEASE } from '../src/antrea/releases';
import { render } from '../src/diagnostics/render';
import { findDefinitionFiles } from '../src/load/load-clustersets';
import { validateDefinitions } from '../src/pipeline/pipeline';

const CANARY = `canary-${randomBytes(8).toString('hex')}`;
/** What must never reach an output: a file outside the folder, and the environment (as /proc/<pid>/environ shows it). */
const LEAKS = [CANARY, `PATH=${process.env.PATH ?? ''}`];

const definition = (name: string) => `apiVersion: antrea-clusterset/v1alpha1
kind: ClusterSetDefinition
metadata: { name: ${name} }
spec:
  antrea: { version: ${LATEST_RELEASE.version} }
  leader: { clusterID: ${name}-north, server: "https://172.18.0.1:6443" }
  clusters:
    - { clusterID: ${name}-north, member: false }
    - { clusterID: ${name}-east, serviceCIDR: 10.96.0.0/16, gateways: [{ node: east-1 }] }
    - { clusterID: ${name}-west, serviceCIDR: 10.112.0.0/16, gateways: [{ node: west-1 }] }
`;
const typescript = (name: string, head: string) =>
  `${head}\nexport default ${JSON.stringify({
    apiVersion: 'antrea-clusterset/v1alpha1',
    kind: 'ClusterSetDefinition',
    metadata: { name },
    spec: {
      antrea: { version: LATEST_RELEASE.version },
      leader: { clusterID: `${name}-north`, server: 'https://172.18.0.1:6443' },
      clusters: [
        { clusterID: `${name}-north`, member: false },
        { clusterID: `${name}-east`, serviceCIDR: '10.96.0.0/16', gateways: [{ node: 'east-1' }] },
        { clusterID: `${name}-west`, serviceCIDR: '10.112.0.0/16', gateways: [{ node: 'west-1' }] },
      ],
    },
  })};\n`;

interface World {
  readonly dir: string;
  readonly outside: string;
  readonly repo: string;
}
/** An entry of the folder: made under its name, and whether it must load. */
type Entry = { readonly kind: string; readonly legitimate: boolean; readonly make: (path: string, world: World) => void };

const link = (kind: string, target: (w: World) => string): Entry => ({ kind, legitimate: false, make: (p, w) => symlinkSync(target(w), p) });
const ENTRIES: readonly Entry[] = [
  { kind: 'definition', legitimate: true, make: (p) => writeFileSync(p, definition(`d${randomBytes(3).toString('hex')}`)) },
  { kind: 'link inside the folder', legitimate: true, make: (p, w) => symlinkSync(join(w.dir, 'inner', 'target.yaml'), p) },
  link('link to /proc/self/environ', () => '/proc/self/environ'),
  link("link to the compiler's /proc/<pid>/environ", () => `/proc/${process.pid}/environ`),
  link("link to its parent's environ", () => `/proc/${process.ppid}/environ`),
  link('link to /proc/self/cmdline', () => '/proc/self/cmdline'),
  link('link to /sys', () => '/sys/kernel/uevent_seqnum'),
  link('link to /dev/zero', () => '/dev/zero'),
  link('link to /dev/urandom', () => '/dev/urandom'),
  link('link to /dev/null', () => '/dev/null'),
  link('link to a file outside the repository', (w) => join(w.outside, 'secret.yaml')),
  link('link to a file of the repository outside the folder', () => '../credentials.yaml'),
  link('link through a linked folder out', () => 'up/credentials.yaml'),
  link('chain of links that leaves at the end', () => 'chain-1.yaml'),
  { kind: 'link to itself', legitimate: false, make: (p) => symlinkSync(p, p) },
  link('link to the folder', () => '.'),
  link('link to the folder above', () => '..'),
  link('dangling link', () => 'nowhere.yaml'),
  { kind: 'FIFO', legitimate: false, make: (p) => execFileSync('mkfifo', [p]) },
  { kind: 'socket', legitimate: false, make: () => undefined },
  { kind: 'folder', legitimate: false, make: (p) => mkdirSync(p) },
  {
    kind: 'TypeScript import of /proc',
    legitimate: false,
    make: (p) => writeFileSync(p, typescript('t', "import environ from './proc/self/environ';\nvoid environ;")),
  },
  {
    kind: 'TypeScript import of a JSON file outside',
    legitimate: false,
    make: (p) => writeFileSync(p, typescript('t', "import secret from './outside.json';\nif (secret) throw new Error(JSON.stringify(secret));")),
  },
  {
    kind: "TypeScript read of its parent's environ",
    legitimate: false,
    make: (p) =>
      writeFileSync(
        p,
        typescript(
          't',
          "declare const require: any, process: any;\nthrow new Error(require('fs').readFileSync('/proc/' + process.ppid + '/environ', 'utf8'));",
        ),
      ),
  },
  {
    kind: 'TypeScript escape to process',
    legitimate: false,
    make: (p) =>
      writeFileSync(
        p,
        typescript('t', "const p = (globalThis as any).constructor.constructor('return process')();\nthrow new Error(Object.entries(p.env).join(';'));"),
      ),
  },
  {
    kind: 'TypeScript definition',
    legitimate: true,
    make: (p) =>
      writeFileSync(p, typescript(`t${randomBytes(3).toString('hex')}`, "import { defineClusterSet } from 'antrea-clusterset';\nvoid defineClusterSet;")),
  },
];
const isTypeScript = (e: Entry) => e.kind.startsWith('TypeScript');
const named = (entries: readonly Entry[], extensions: readonly string[]) =>
  fc.record({ entry: fc.constantFrom(...entries), extension: fc.constantFrom(...extensions) });

/**
 * A folder's entries: TypeScript ones (rarer: each costs a process) under TypeScript names, YAML
 * definitions under YAML names, and whatever is not a definition under any definition's name.
 */
const folderArbitrary = fc.array(
  fc.oneof(
    { weight: 1, arbitrary: named(ENTRIES.filter(isTypeScript), ['.ts', '.mts', '.cts']) },
    {
      weight: 2,
      arbitrary: named(
        ENTRIES.filter((e) => e.legitimate && !isTypeScript(e)),
        ['.yaml', '.yml'],
      ),
    },
    {
      weight: 6,
      arbitrary: named(
        ENTRIES.filter((e) => !e.legitimate && !isTypeScript(e)),
        ['.yaml', '.yml', '.ts', '.mts', '.cts'],
      ),
    },
  ),
  { minLength: 1, maxLength: 6 },
);

export default async function bench(): Promise<void> {
  const runs = Number(process.env.FUZZ_FILE_RUNS ?? 200);
  const seed = Number(process.env.FUZZ_SEED ?? 37);
  const root = mkdtempSync(join(tmpdir(), 'fuzz-files-'));
  const start = performance.now();
  const count = { entries: 0, refused: 0, loaded: 0, crashes: 0, leaks: 0, misses: 0, falseRefusals: 0, cliRuns: 0, hangs: 0 };
  const kinds = new Map<string, number>();
  const examples: string[] = [];
  const example = (what: string) => {
    if (examples.length < 5) examples.push(what);
  };
  const sockets: Server[] = [];
  try {
    for (const [run, folder] of fc.sample(folderArbitrary, { numRuns: runs, seed }).entries()) {
      const repo = join(root, `repo-${run}`);
      const world: World = { repo, dir: join(repo, 'clustersets'), outside: join(root, `outside-${run}`) };
      mkdirSync(join(world.dir, 'inner'), { recursive: true });
      mkdirSync(join(repo, '.git'));
      mkdirSync(world.outside);
      for (const [file, text] of [
        [join(world.outside, 'secret.yaml'), `token: ${CANARY}\n`],
        [join(world.outside, 'secret.json'), JSON.stringify({ token: CANARY })],
        [join(repo, 'credentials.yaml'), `token: ${CANARY}\n`],
        [join(world.dir, 'inner', 'target.yaml'), definition(`inner${run}`)],
      ] as const)
        writeFileSync(file, text);
      symlinkSync('..', join(world.dir, 'up'));
      symlinkSync('/proc', join(world.dir, 'proc'));
      symlinkSync(join(world.outside, 'secret.json'), join(world.dir, 'outside.json'));
      symlinkSync('chain-2.yaml', join(world.dir, 'chain-1.yaml'));
      symlinkSync('../credentials.yaml', join(world.dir, 'chain-2.yaml'));
      const expected = new Map<string, Entry>();
      for (const [i, { entry, extension }] of folder.entries()) {
        const path = join(world.dir, `e${i}${extension}`);
        if (entry.kind === 'socket') {
          const server = createServer();
          await new Promise<void>((listening) => server.listen(path, listening));
          sockets.push(server);
        } else entry.make(path, world);
        expected.set(relative(process.cwd(), path), entry);
        kinds.set(entry.kind, (kinds.get(entry.kind) ?? 0) + 1);
      }
      count.entries += expected.size;
      // the folder as a pull request leaves it; the links made above are definitions too when their names say so
      const files = findDefinitionFiles([world.dir], []).filter((f) => expected.has(f));
      try {
        const result = await validateDefinitions(files);
        const outputs = [
          render('text', result.diagnostics, result.texts),
          render('json', result.diagnostics),
          render('github', result.diagnostics),
          JSON.stringify(result.parsed.map((p) => p.definition)),
        ].join('\n');
        if (LEAKS.some((l) => outputs.includes(l))) {
          count.leaks++;
          example(`leak in folder ${run}: ${folder.map((f) => f.entry.kind).join(', ')}`);
        }
        for (const [file, entry] of expected) {
          const refused = result.diagnostics.some((d) => d.file === file && (d.code === 'file-system' || d.code === 'typescript-evaluation'));
          if (refused) count.refused++;
          else count.loaded++;
          if (entry.legitimate && refused) {
            count.falseRefusals++;
            example(`${entry.kind} refused: ${String(result.diagnostics.find((d) => d.file === file)?.message)}`);
          }
          if (!entry.legitimate && !refused) {
            count.misses++;
            example(`${entry.kind} (${file}) loaded`);
          }
        }
      } catch (err) {
        count.crashes++;
        example(`crash in folder ${run}: ${String(err)}`);
      }
      if (run % 25 === 0) {
        count.cliRuns++;
        const cli = spawnSync(process.execPath, [resolve('bin/clusterset.mjs'), 'validate', '--format', 'github', 'clustersets'], {
          cwd: repo,
          encoding: 'utf8',
          env: { PATH: process.env.PATH, CLUSTERSET_FUZZ_CANARY: CANARY },
          timeout: 120_000,
          killSignal: 'SIGKILL',
        });
        if (cli.signal !== null) count.hangs++;
        if (cli.status !== 1 && cli.status !== 0) count.crashes++;
        if (LEAKS.some((l) => `${cli.stdout}${cli.stderr}`.includes(l))) count.leaks++;
      }
    }
  } finally {
    for (const server of sockets) server.close();
    rmSync(root, { recursive: true, force: true });
  }
  console.log(
    `${runs} generated definition folders (seed ${seed}) in ${((performance.now() - start) / 1000).toFixed(1)} s: ${count.entries} entries of ${kinds.size} kinds, ` +
      `${count.refused} refused at their file, ${count.loaded} loaded; ${count.cliRuns} folders also through the CLI; ` +
      `${count.crashes} crashes, ${count.leaks} leaks, ${count.hangs} hangs, ${count.misses} hostile entries loaded, ${count.falseRefusals} legitimate entries refused`,
  );
  for (const e of examples) console.log(`  ${e}`);
}
