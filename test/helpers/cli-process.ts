import { spawn } from 'node:child_process';
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
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [CLI_BIN, ...args], {
      cwd: options.cwd,
      env: { PATH: process.env.PATH, TMPDIR: process.env.TMPDIR, ...options.env },
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
