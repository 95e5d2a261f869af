import { spawn, type ChildProcessByStdio } from 'node:child_process';
import { existsSync, realpathSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import type { DefinitionFolder } from './definition-folder';
import { collectModules } from './module-graph';
import type { Ts } from './typescript-compiler';

/** Limits of one definition's evaluation; beyond them it is stopped and reported. */
export const TYPESCRIPT_LIMITS = {
  timeoutMs: 10_000,
  maxOldSpaceMb: 256,
  maxOutputBytes: 16 * 1024 * 1024,
  /** the files a definition may consist of, and their text in all */
  maxModules: 256,
  maxSourceBytes: 16 * 1024 * 1024,
};

export type Evaluation =
  | { ok: true; data: unknown }
  | { ok: false; message: string; hint?: string; /** where in the definition, when an import is the reason */ at?: { start: number; end: number } };

/** The child script, beside these sources or copied into lib/ by the build. */
function childScript(): string {
  const here = dirname(fileURLToPath(import.meta.url));
  for (const candidate of [join(here, 'evaluate-definition.cjs'), join(here, '..', 'evaluate-definition.cjs'), join(here, 'load', 'evaluate-definition.cjs')]) {
    if (existsSync(candidate)) return candidate;
  }
  throw new Error(`evaluate-definition.cjs not found beside ${here}`);
}

/**
 * Node's permission model is `--permission` since Node 22.13 and 23.5, and only
 * `--experimental-permission` before (Node 20), which Node 24 refuses to start with: the flag is
 * chosen by what the running Node accepts, not by its version.
 */
export const permissionFlag = (): string => (process.allowedNodeEnvironmentFlags.has('--permission') ? '--permission' : '--experimental-permission');

/** The sandbox's Node flags: the permission model with reads of its own script only (no writes, child processes, workers or addons), and the heap limit. */
export function sandboxArguments(script: string): string[] {
  return [
    permissionFlag(),
    ...[...new Set([script, realpathSync(script)])].map((p) => `--allow-fs-read=${p}`),
    `--max-old-space-size=${TYPESCRIPT_LIMITS.maxOldSpaceMb}`,
    '--no-warnings',
    '--disable-proto=delete',
    script,
  ];
}

/**
 * The sandbox's process: an empty environment, and a session and process group of its own, so that
 * even code that got past the vm context (evaluate-definition.cjs) and signalled its group would
 * not reach the compiler. The script is the sandbox's own; tests run probes in its place.
 */
export function startSandbox(script = childScript()): ChildProcessByStdio<Writable, Readable, Readable> {
  return spawn(process.execPath, sandboxArguments(script), { env: {}, stdio: ['pipe', 'pipe', 'pipe'], cwd: dirname(script), detached: true });
}

/**
 * Evaluates one TypeScript definition with no powers (#14 item 1, #37 items 1 and 2): its modules
 * are read here under the folder's rules (module-graph.ts) and handed as text to a child process
 * that runs them in a vm context without any object of Node's (evaluate-definition.cjs); the
 * child has the permission model, no environment, a session of its own, and is killed past a time,
 * memory and output limit by this process's timer. Whatever the definition does (throw, loop,
 * exhaust memory, try to reach the process), the result is an Evaluation; only data crosses back, as JSON.
 */
export function evaluateTypeScript(ts: Ts, file: string, text: string, real: string, folder: DefinitionFolder): Promise<Evaluation> {
  const graph = collectModules(ts, file, text, real, folder, TYPESCRIPT_LIMITS);
  if (!graph.ok) return Promise.resolve({ ok: false, message: graph.message, hint: graph.hint, ...(graph.at ? { at: graph.at } : {}) });
  const tookLonger: Evaluation = {
    ok: false,
    message: `evaluating the definition took longer than ${TYPESCRIPT_LIMITS.timeoutMs / 1000} s`,
    hint: 'a definition is data: remove loops and waits from it',
  };
  return new Promise((done) => {
    const child = startSandbox();
    const chunks: Buffer[] = [];
    let size = 0;
    let timedOut = false;
    let tooBig = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, TYPESCRIPT_LIMITS.timeoutMs);
    // the child may be gone before it read its input (killed, out of memory): its close says why
    child.stdin.on('error', () => undefined);
    child.stdin.end(JSON.stringify({ entry: graph.entry, modules: graph.modules, timeoutMs: TYPESCRIPT_LIMITS.timeoutMs }));
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
      if (timedOut) return done(tookLonger);
      if (tooBig) return done({ ok: false, message: `the definition's data is larger than ${TYPESCRIPT_LIMITS.maxOutputBytes} bytes` });
      const result = code === 0 ? parseResult(Buffer.concat(chunks).toString('utf8')) : undefined;
      if (result === 'timed out') return done(tookLonger);
      if (result) return done(result);
      return done({
        ok: false,
        message: `evaluating the definition failed (${signal ?? `exit code ${code}`}): it may have run out of memory (limit ${TYPESCRIPT_LIMITS.maxOldSpaceMb} MB)`,
        hint: 'a definition is data: it must return it without side effects',
      });
    });
  });
}

/** The child's one line: data, a message, or that its own time limit ended the evaluation. */
function parseResult(line: string): Evaluation | 'timed out' | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (typeof parsed !== 'object' || parsed === null || !('ok' in parsed)) return undefined;
  if (parsed.ok === true && 'data' in parsed) return { ok: true, data: parsed.data };
  if ('timedOut' in parsed && parsed.timedOut === true) return 'timed out';
  if (parsed.ok === false && 'message' in parsed && typeof parsed.message === 'string') return { ok: false, message: parsed.message };
  return undefined;
}
