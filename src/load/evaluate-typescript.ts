import { spawn } from 'node:child_process';
import { existsSync, realpathSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Limits of one definition's evaluation; beyond them it is stopped and reported. */
export const TYPESCRIPT_LIMITS = { timeoutMs: 10_000, maxOldSpaceMb: 256, maxOutputBytes: 16 * 1024 * 1024 };

export type Evaluation = { ok: true; data: unknown } | { ok: false; message: string; hint?: string };

/** The child script, beside these sources or copied into lib/ by the build. */
function childScript(): string {
  const here = dirname(fileURLToPath(import.meta.url));
  for (const candidate of [join(here, 'evaluate-definition.cjs'), join(here, '..', 'evaluate-definition.cjs'), join(here, 'load', 'evaluate-definition.cjs')]) {
    if (existsSync(candidate)) return candidate;
  }
  throw new Error(`evaluate-definition.cjs not found beside ${here}`);
}

/**
 * Evaluates one TypeScript definition in a child process with no powers beyond reading it:
 * Node's permission model allows reads of the definition's folder, node_modules and the
 * TypeScript compiler only (no writes, child processes or workers), the environment is empty,
 * and the process is killed past a time and memory limit. Whatever the definition does (throw,
 * exit, loop, print), the parent gets an Evaluation; only the data crosses back, as JSON.
 */
export function evaluateTypeScript(file: string, typescript: string): Promise<Evaluation> {
  const script = childScript();
  const typescriptDir = dirname(dirname(typescript));
  const absolute = resolve(file);
  const readable = new Set<string>();
  const allow = (p: string, tree: boolean) => {
    for (const path of new Set([p, safeRealpath(p)])) readable.add(tree ? join(path, '*') : path);
  };
  allow(dirname(absolute), true);
  allow(join(process.cwd(), 'node_modules'), true);
  allow(typescriptDir, true);
  allow(script, false);
  const args = [
    '--experimental-permission',
    ...[...readable].map((p) => `--allow-fs-read=${p}`),
    `--max-old-space-size=${TYPESCRIPT_LIMITS.maxOldSpaceMb}`,
    '--no-warnings',
    '--disable-proto=delete',
    script,
    typescript,
    absolute,
  ];
  return new Promise((done) => {
    const child = spawn(process.execPath, args, { env: {}, stdio: ['ignore', 'pipe', 'pipe'], cwd: dirname(absolute) });
    const chunks: Buffer[] = [];
    let size = 0;
    let timedOut = false;
    let tooBig = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, TYPESCRIPT_LIMITS.timeoutMs);
    child.stdout.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > TYPESCRIPT_LIMITS.maxOutputBytes) {
        tooBig = true;
        child.kill('SIGKILL');
      } else chunks.push(chunk);
    });
    child.stderr.resume();
    child.on('error', (err) => {
      clearTimeout(timer);
      done({ ok: false, message: `cannot start the evaluation of the definition: ${err.message}` });
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (timedOut)
        return done({
          ok: false,
          message: `evaluating the definition took longer than ${TYPESCRIPT_LIMITS.timeoutMs / 1000} s`,
          hint: 'a definition is data: remove loops and waits from it',
        });
      if (tooBig) return done({ ok: false, message: `the definition's data is larger than ${TYPESCRIPT_LIMITS.maxOutputBytes} bytes` });
      const lines = Buffer.concat(chunks).toString('utf8').trimEnd().split('\n');
      // the child prints its result last; anything the definition printed comes before it
      let result: Evaluation | undefined;
      try {
        const parsed = JSON.parse(lines[lines.length - 1] ?? '') as Evaluation;
        if (code === 0 && typeof parsed === 'object' && parsed !== null && 'ok' in parsed) result = parsed;
      } catch {
        result = undefined;
      }
      if (result) return done(result);
      if (signal === null && code !== null && code !== 134)
        return done({
          ok: false,
          message: `the definition ended its evaluation (exit code ${code}) before it returned its data`,
          hint: 'a definition must not call process.exit or end the process',
        });
      return done({
        ok: false,
        message: `evaluating the definition failed (${signal ?? `exit code ${code}`}): it may have run out of memory (limit ${TYPESCRIPT_LIMITS.maxOldSpaceMb} MB) or ended the process`,
        hint: 'a definition is data: it must return it without side effects',
      });
    });
  });
}

function safeRealpath(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    return p;
  }
}
