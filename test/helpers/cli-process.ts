import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { CLI_BIN } from './cli-bin';

export interface CliRun {
  /** null when the process ended by a signal */
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
  /** the test's own limit ended it: the CLI hung, was stopped, or never finished */
  readonly killed: boolean;
}

/**
 * Runs the CLI in a process group of its own with a limit of the test's, so that whatever a hostile
 * input makes of it (a stopped process, a FIFO that blocks a read, a signal to its group) ends
 * within the limit and reaches neither the test runner nor other processes.
 */
export function runCli(args: readonly string[], options: { cwd: string; env?: NodeJS.ProcessEnv; limitMs?: number }): Promise<CliRun> {
  return runNode([CLI_BIN, ...args], options);
}

/** Node with these arguments, as runCli runs the CLI: a process group of its own, the test's limit. */
function runNode(args: readonly string[], options: { cwd: string; env?: NodeJS.ProcessEnv; limitMs?: number }): Promise<CliRun> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, args, {
      cwd: options.cwd,
      env: { PATH: process.env.PATH, TMPDIR: process.env.TMPDIR, XDG_CACHE_HOME: process.env.XDG_CACHE_HOME, ...options.env },
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    let killed = false;
    child.stdout.setEncoding('utf8').on('data', (s: string) => (stdout += s));
    child.stderr.setEncoding('utf8').on('data', (s: string) => (stderr += s));
    const timer = setTimeout(() => {
      killed = true;
      // a stopped process takes SIGKILL too; SIGCONT is for its children that were stopped with it
      for (const signal of ['SIGKILL', 'SIGCONT'] as const) {
        try {
          process.kill(-child.pid!, signal);
        } catch {
          // already gone
        }
      }
    }, options.limitMs ?? 45_000);
    child.on('error', fail);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      done({ code, signal, stdout, stderr, killed });
    });
  });
}

/** Runs of the CLI a few at a time (each waits mostly on its own child processes), in the order given. */
export async function runClis(
  runs: readonly { args: readonly string[]; cwd: string; env?: NodeJS.ProcessEnv }[],
  limitMs: number,
  concurrency = 3,
): Promise<CliRun[]> {
  const results: CliRun[] = [];
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < runs.length; i = next++) results[i] = await runCli(runs[i]!.args, { ...runs[i]!, limitMs });
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, runs.length) }, worker));
  return results;
}

const RESULTS = '\n--- the runs, as JSON ---\n';

/**
 * Runs of the CLI one after the other in one process with one limit, at one start-up of the
 * compiled CLI for all: the commands' own `main` (as bin/clusterset.mjs calls it) with the
 * streams of each run captured. A run that blocks ends the process at the limit, and one that
 * crashes ends it with a stack trace: either way every run is reported so (killed, or the
 * process's own exit and output), and every row that reads one fails. Whatever the process
 * printed outside a run's streams is added to every run's stderr. Where the suite's compiled CLI
 * is not there (test/setup/built-cli.ts), a process a run (runClis).
 */
export async function runClisInOneProcess(
  runs: readonly (readonly string[])[],
  options: { cwd: string; env?: NodeJS.ProcessEnv; limitMs: number },
): Promise<CliRun[]> {
  const lib = new URL('../lib/cli.js', pathToFileURL(CLI_BIN));
  if (!existsSync(lib))
    return runClis(
      runs.map((args) => ({ args, ...options })),
      options.limitMs,
    );
  const driver = `const { main } = await import(${JSON.stringify(lib.href)});
const runs = [];
for (const argv of JSON.parse(process.argv[1])) {
  let stdout = '';
  let stderr = '';
  const code = await main(argv, { stdout: { write: (s) => { stdout += s; } }, stderr: { write: (s) => { stderr += s; } } });
  runs.push({ code, stdout, stderr });
}
process.stdout.write(${JSON.stringify(RESULTS)} + JSON.stringify(runs));
`;
  const run = await runNode(['--input-type=module', '-e', driver, JSON.stringify(runs)], options);
  const at = run.stdout.lastIndexOf(RESULTS);
  if (run.killed || run.code !== 0 || run.signal !== null || at < 0) return runs.map(() => run);
  const outside = run.stdout.slice(0, at) + run.stderr;
  return (JSON.parse(run.stdout.slice(at + RESULTS.length)) as { code: number; stdout: string; stderr: string }[]).map((r) => ({
    ...r,
    stderr: r.stderr + outside,
    signal: null,
    killed: false,
  }));
}
