import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * The programs printed commands call; each stub records its argv and prints nothing (`head` and
 * `base64` too, so that a random key made with them is the same empty word in every run).
 */
export const STUBBED = ['kubectl', 'flux', 'argocd', 'jq', 'helm', 'kubeseal', 'head', 'base64'] as const;

/** A shell that runs printed commands: `sh` is dash on this machine, busybox's ash and bash beside it. */
export interface Shell {
  readonly name: string;
  readonly argv: readonly string[];
}

export const SHELLS: readonly Shell[] = [
  { name: 'sh', argv: ['sh'] },
  { name: 'dash', argv: ['dash'] },
  { name: 'busybox sh', argv: ['busybox', 'sh'] },
  { name: 'bash', argv: ['bash'] },
].filter((s) => existsOnPath(s.argv[0]!));

function existsOnPath(program: string): boolean {
  return (process.env.PATH ?? '').split(':').some((dir) => dir !== '' && existsSync(join(dir, program)));
}

/** One call of a stubbed program: its name and its arguments, exactly as the shell passed them. */
export interface StubCall {
  readonly program: string;
  readonly args: readonly string[];
}

export interface StubRun {
  /** every call, sorted (the members of a pipeline run in no order) */
  readonly calls: readonly StubCall[];
  /** files the script left in its working directory (a command substitution that ran leaves one) */
  readonly leftFiles: readonly string[];
}

/**
 * Runs a script as a person pasting it would (`<shell> -e -c script`), in an empty working
 * directory, with stubs on PATH that record their argv NUL-separated: the calls are what the
 * printed text does once the shell has quoted, expanded and split it.
 */
export function runWithStubs(script: string, shell: Shell, env: Readonly<Record<string, string>> = {}): StubRun {
  const dir = mkdtempSync(join(tmpdir(), 'stub-run-'));
  const bin = join(dir, 'bin');
  const cwd = join(dir, 'cwd');
  try {
    mkdirSync(bin);
    mkdirSync(cwd);
    const log = join(dir, 'calls');
    mkdirSync(log);
    for (const program of STUBBED) {
      // a file per call (the members of a pipeline run at once): the program and its arguments, each
      // ended by NUL; the file is made by the shell itself (noclobber: a name taken is never
      // overwritten, the next is tried), not by a mktemp process a call
      writeFileSync(
        join(bin, program),
        `#!/bin/sh\nset -C\nn=0\nwhile ! printf '%s\\0' ${program} "$@" 2>/dev/null > "${log}/call.$$.$n"; do n=$((n + 1)); done\n`,
      );
      chmodSync(join(bin, program), 0o755);
    }
    execFileSync(shell.argv[0]!, [...shell.argv.slice(1), '-e', '-c', script], {
      cwd,
      env: { PATH: `${bin}:${String(process.env.PATH)}`, HOME: cwd, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const calls = readdirSync(log)
      .map((f) => {
        const [program, ...args] = readFileSync(join(log, f), 'utf8').split('\0').slice(0, -1);
        return { program: program!, args };
      })
      .sort(byArgv);
    return { calls, leftFiles: readdirSync(cwd) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const byArgv = (a: StubCall, b: StubCall) => {
  const x = JSON.stringify([a.program, ...a.args]);
  const y = JSON.stringify([b.program, ...b.args]);
  return x < y ? -1 : x > y ? 1 : 0;
};

/** The fenced `sh` blocks of a Markdown text (the README's and the plan's command blocks), fence and indentation removed. */
export function shellBlocks(markdown: string): string[] {
  return [...markdown.matchAll(/^( *)(`{3,})sh\n([\s\S]*?)^\1\2$/gm)].map((m) =>
    m[3]!
      .split('\n')
      .map((l) => l.slice(m[1]!.length))
      .join('\n'),
  );
}
