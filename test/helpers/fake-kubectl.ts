import { execFileSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** One kubectl call as a shell passed it: its arguments, and the usual flags read out. */
export interface KubectlCall {
  readonly args: readonly string[];
  readonly context?: string;
  readonly namespace?: string;
  /** `delete`, `get`, …: the first argument that is not a flag or a flag's value */
  readonly verb?: string;
  /** what follows the verb: the resource and the names */
  readonly operands: readonly string[];
}

/**
 * Runs commands printed for a person in a real POSIX shell (`sh -e -c`), with a kubectl on PATH
 * that only records its arguments: the calls are what the printed text really does once quoting,
 * loops and variables are expanded.
 */
export function runWithFakeKubectl(commands: readonly string[]): KubectlCall[] {
  const bin = mkdtempSync(join(tmpdir(), 'fake-kubectl-'));
  try {
    const log = join(bin, 'calls');
    writeFileSync(log, '');
    writeFileSync(join(bin, 'kubectl'), `#!/bin/sh\nfor a in "$@"; do printf '%s\\t' "$a"; done >> '${log}'\necho >> '${log}'\n`);
    chmodSync(join(bin, 'kubectl'), 0o755);
    for (const c of commands) execFileSync('sh', ['-e', '-c', c], { env: { ...process.env, PATH: `${bin}:${process.env.PATH}` } });
    return readFileSync(log, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => parseCall(line.split('\t').slice(0, -1)));
  } finally {
    rmSync(bin, { recursive: true, force: true });
  }
}

const WITH_VALUE = new Set(['--context', '-n', '--namespace', '-o', '--output', '-l', '--selector']);

function parseCall(args: string[]): KubectlCall {
  const rest: string[] = [];
  let context: string | undefined;
  let namespace: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (WITH_VALUE.has(a)) {
      const v = args[++i];
      if (a === '--context') context = v;
      if (a === '-n' || a === '--namespace') namespace = v;
    } else if (!a.startsWith('-')) rest.push(a);
  }
  return { args, context, namespace, verb: rest[0], operands: rest.slice(1) };
}
