import { main } from '../../src/cli/main';

/**
 * The CLI in process, `main(argv)` with captured streams, run from `cwd` when given: what the
 * commands resolve against the working directory (the repository's clustersets/, git) is the
 * same as in a process started there, at none of a process's start-up (a second of CPU for the
 * compiled CLI, more through tsx). A worker of vitest's forks pool may change its directory; it
 * is changed back, as are the variables of `env`, since test files share their worker.
 */
export async function runCli(argv: readonly string[], options: { cwd?: string; env?: Readonly<Record<string, string>> } = {}) {
  let stdout = '';
  let stderr = '';
  const io = { stdout: { write: (s: string) => (stdout += s) }, stderr: { write: (s: string) => (stderr += s) } };
  const directory = process.cwd();
  const previous = Object.keys(options.env ?? {}).map((k) => [k, process.env[k]] as const);
  try {
    if (options.cwd) process.chdir(options.cwd);
    Object.assign(process.env, options.env);
    const status = await main(argv, io);
    return { status, stdout, stderr };
  } finally {
    process.chdir(directory);
    for (const [k, v] of previous) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  }
}
