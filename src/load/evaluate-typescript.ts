import { spawn, type ChildProcessByStdio } from 'node:child_process';
import { existsSync, realpathSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { dataPathText, type DataPath } from '../diagnostics/diagnostic';
import type { DefinitionFolder } from './definition-folder';
import { YAML_LIMITS } from './load-yaml';
import { collectModules, type ModuleGraph } from './module-graph';
import { LineIndex } from './source-file';
import { originalOffset } from './transpiled-position';
import type { Ts } from './typescript-package';

/** Limits of one definition's evaluation, and of all of a command's; beyond them it is stopped and reported. */
export const TYPESCRIPT_LIMITS = {
  /** one definition's time */
  timeoutMs: 5_000,
  /** all definitions of one command together (#48 item 1): the ones after it are not evaluated */
  budgetMs: 20_000,
  /** the engine's memory: every allocation of QuickJS, typed arrays included */
  memoryMb: 128,
  /** the engine's stack: deep recursion is a RangeError, not a crash */
  stackKb: 256,
  /** the sandbox process's own V8 heap (Node and the engine's glue; the engine's memory is apart) */
  maxOldSpaceMb: 64,
  maxOutputBytes: 16 * 1024 * 1024,
  /** the files a definition may consist of, and their text in all */
  maxModules: 256,
  maxSourceBytes: 16 * 1024 * 1024,
  /** the data's nesting, as YAML's (load-yaml.ts): deeper data is refused before the compiler walks it */
  maxDepth: YAML_LIMITS.maxDepth,
};

/**
 * What all TypeScript definitions of one command share (one per loadClusterSets call): the time,
 * from the first evaluation on, and the sandbox process, which evaluates them one after the other,
 * each in an engine of its own. `closeSandbox` ends it.
 */
export interface TypeScriptBudget {
  deadline?: number;
  sandbox?: SandboxSession;
}

/** Ends the command's sandbox process, if it started one. */
export function closeSandbox(budget: TypeScriptBudget): void {
  budget.sandbox?.close();
  delete budget.sandbox;
}

export type Evaluation =
  | { ok: true; data: unknown }
  | {
      ok: false;
      message: string;
      hint?: string;
      /** where in the definition, when an import is the reason */
      at?: { start: number; end: number };
      /** where in its data, when the data is the reason */
      path?: DataPath;
    };

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

/**
 * The engine (QuickJS and its WebAssembly build): the real paths of the two modules the child
 * script loads, passed to it as arguments (it resolves no name itself: a package found through a
 * link, as an installed tool may be, would be read at a path the permission model does not allow),
 * and the folders of the three packages, which it may read.
 */
let engineFiles: { entries: string[]; folders: string[] } | undefined;
function engine(): { entries: string[]; folders: string[] } {
  return (engineFiles ??= findEngine());
}
function findEngine(): { entries: string[]; folders: string[] } {
  const require = createRequire(import.meta.url);
  const core = realpathSync(require.resolve('quickjs-emscripten-core'));
  const entries = [core, realpathSync(require.resolve('@jitl/quickjs-wasmfile-release-sync'))];
  const types = realpathSync(createRequire(core).resolve('@jitl/quickjs-ffi-types'));
  const folders = [...entries, types].map((entry) => {
    let dir = dirname(entry);
    while (!existsSync(join(dir, 'package.json'))) dir = dirname(dir);
    return dir;
  });
  return { entries, folders };
}

/**
 * The sandbox's Node flags: the permission model with reads of its own script and the engine's
 * packages only (no writes, child processes, workers or addons), no inspector by SIGUSR1 where
 * Node has the flag, and the heap limit of Node's own side (the engine's memory is its own limit).
 */
export function sandboxArguments(script: string): string[] {
  const reads = [...new Set([script, realpathSync(script)])];
  const { entries, folders } = engine();
  return [
    permissionFlag(),
    ...reads.map((p) => `--allow-fs-read=${p}`),
    ...folders.map((p) => `--allow-fs-read=${join(p, '*')}`),
    ...(process.allowedNodeEnvironmentFlags.has('--disable-sigusr1') ? ['--disable-sigusr1'] : []),
    `--max-old-space-size=${TYPESCRIPT_LIMITS.maxOldSpaceMb}`,
    '--no-warnings',
    '--disable-proto=delete',
    script,
    ...entries,
    String(TYPESCRIPT_LIMITS.memoryMb * 1024 * 1024),
  ];
}

/**
 * The sandbox's process: an empty environment, and a session and process group of its own, so
 * that even code that got past the engine (evaluate-definition.cjs) and signalled its group would
 * not reach the compiler. The script is the sandbox's own; tests run probes in its place.
 */
export function startSandbox(script = childScript()): ChildProcessByStdio<Writable, Readable, Readable> {
  return spawn(process.execPath, sandboxArguments(script), { env: {}, stdio: ['pipe', 'pipe', 'pipe'], cwd: dirname(script), detached: true });
}

/** Past the engine's own deadline, the child is killed: it may be stuck outside the interrupt handler's reach (starting, a long native call). */
const KILL_GRACE_MS = 2_000;

/**
 * Evaluates one TypeScript definition with no powers (#14 item 1, #37, #48 item 1): its modules
 * are read here under the folder's rules, syntax-checked and transpiled (module-graph.ts), and
 * handed as text to a child process that runs them in QuickJS compiled to WebAssembly
 * (evaluate-definition.cjs), whose realm has no object of Node's. The engine's memory and stack
 * are bounded, its time by an interrupt at a deadline: the earlier of the definition's limit and
 * the command's budget. The child has the permission model, no environment, a session of its
 * own, and is killed past the deadline and an output limit by this process's timer. Whatever the
 * definition does, the result is an Evaluation; only data crosses back, as JSON.
 */
export async function evaluateTypeScript(
  ts: Ts,
  file: string,
  text: string,
  real: string,
  folder: DefinitionFolder,
  budget: TypeScriptBudget,
): Promise<Evaluation> {
  const now = Date.now();
  budget.deadline ??= now + TYPESCRIPT_LIMITS.budgetMs;
  if (now >= budget.deadline) return notEvaluated();
  // started first: its Node and its engine start while the modules are read and transpiled here
  if (!budget.sandbox?.alive) budget.sandbox = new SandboxSession();
  const sandbox = budget.sandbox;
  const graph = collectModules(ts, file, text, real, folder, TYPESCRIPT_LIMITS);
  if (!graph.ok) return { ok: false, message: graph.message, hint: graph.hint, ...(graph.at ? { at: graph.at } : {}) };
  const deadline = Math.min(now + TYPESCRIPT_LIMITS.timeoutMs, budget.deadline);
  const tookLonger: Evaluation =
    deadline === budget.deadline && deadline < now + TYPESCRIPT_LIMITS.timeoutMs
      ? {
          ok: false,
          message: `evaluating the definition took longer than what was left of the run's time budget (${TYPESCRIPT_LIMITS.budgetMs / 1000} s)`,
          hint: BUDGET_HINT,
        }
      : {
          ok: false,
          message: `evaluating the definition took longer than ${TYPESCRIPT_LIMITS.timeoutMs / 1000} s`,
          hint: 'a definition is data: remove loops and waits from it',
        };
  const input = JSON.stringify({
    entry: graph.entry,
    modules: graph.modules,
    deadline,
    stackBytes: TYPESCRIPT_LIMITS.stackKb * 1024,
    maxDepth: TYPESCRIPT_LIMITS.maxDepth,
  });
  const answer = await sandbox.request(input, deadline + KILL_GRACE_MS);
  if ('timedOut' in answer) return tookLonger;
  if ('tooBig' in answer) return { ok: false, message: `the definition's data is larger than ${TYPESCRIPT_LIMITS.maxOutputBytes} bytes` };
  if ('startFailed' in answer) return { ok: false, message: `cannot start the evaluation of the definition: ${answer.startFailed}` };
  const { result: parsed, end } = 'line' in answer ? parseResult(answer.line) : { result: undefined, end: false };
  // the child ends after an answer that may have left its process broken (#54): the next
  // definition must not be sent to it before its exit is seen, so it is ended here, at once
  if (end) sandbox.end();
  // the engine's own error, which the definition may have caught and thrown on
  const result = typeof parsed === 'object' && !parsed.ok && /: out of memory$/.test(parsed.message) ? 'out of memory' : parsed;
  if (result === 'timed out') return tookLonger;
  if (result === 'out of memory' || result === undefined)
    return {
      ok: false,
      message:
        result === 'out of memory'
          ? `evaluating the definition ran out of memory (limit ${TYPESCRIPT_LIMITS.memoryMb} MB)`
          : `evaluating the definition failed (${'closed' in answer ? answer.closed : 'its answer was not understood'})`,
      hint: 'a definition is data: it must return it without side effects',
    };
  if (result.ok || !result.where) return result;
  return located(result, result.where, graph);
}

type Answer = { line: string } | { timedOut: true } | { tooBig: true } | { closed: string } | { startFailed: string };

/**
 * The sandbox process of one command: one request a line on its stdin, one answer a line on its
 * stdout. Past a request's time or the output limit it is killed, and the next definition starts
 * another.
 */
class SandboxSession {
  private readonly child = startSandbox();
  private chunks: Buffer[] = [];
  private size = 0;
  private waiting: ((answer: Answer) => void) | undefined;
  alive = true;

  constructor() {
    this.child.stdin.on('error', () => undefined);
    this.child.stderr.resume();
    this.child.on('error', (err) => this.settle({ startFailed: err.message }, true));
    this.child.stdout.on('data', (chunk: Buffer) => this.read(chunk));
    this.child.on('close', (code, signal) => {
      this.alive = false;
      this.settle({ closed: signal ?? `exit code ${String(code)}` });
    });
  }

  request(input: string, killAt: number): Promise<Answer> {
    return new Promise((done) => {
      const timer = setTimeout(() => this.settle({ timedOut: true }, true), Math.max(0, killAt - Date.now()));
      this.waiting = (answer) => {
        clearTimeout(timer);
        done(answer);
      };
      if (!this.alive) return this.settle({ closed: 'the sandbox process had ended' });
      this.child.stdin.write(`${input}\n`);
    });
  }

  close(): void {
    this.child.stdin.end();
  }

  /** The process is not used again: it said it ends after its answer, or should have. */
  end(): void {
    this.settle({ closed: 'the sandbox process had ended' }, true);
  }

  private read(chunk: Buffer): void {
    let start = 0;
    for (let nl = chunk.indexOf(10); nl >= 0; nl = chunk.indexOf(10, start)) {
      if (this.size + nl - start > TYPESCRIPT_LIMITS.maxOutputBytes) return this.settle({ tooBig: true }, true);
      this.chunks.push(chunk.subarray(start, nl));
      const line = Buffer.concat(this.chunks).toString('utf8');
      this.chunks = [];
      this.size = 0;
      start = nl + 1;
      this.settle({ line });
    }
    this.size += chunk.length - start;
    if (this.size > TYPESCRIPT_LIMITS.maxOutputBytes) this.settle({ tooBig: true }, true);
    else if (start < chunk.length) this.chunks.push(chunk.subarray(start));
  }

  /** Answers the request waiting, if any; `kill` ends the process (it is then not used again). */
  private settle(answer: Answer, kill = false): void {
    const waiting = this.waiting;
    this.waiting = undefined;
    if (kill) {
      this.alive = false;
      this.child.kill('SIGKILL');
    }
    waiting?.(answer);
  }
}

const BUDGET_HINT =
  "a definition is data and evaluates in milliseconds: fix the definitions reported as taking longer; the run's TypeScript definitions share one time budget";

function notEvaluated(): Evaluation {
  return {
    ok: false,
    message: `not evaluated: the run's TypeScript definitions used up their time budget (${TYPESCRIPT_LIMITS.budgetMs / 1000} s) before this one`,
    hint: BUDGET_HINT,
  };
}

/** A thrown error's place: in the definition, its span (`process` where it is used); in a module it imports, named in the message. */
function located(result: Evaluation & { ok: false }, where: Where, graph: ModuleGraph & { ok: true }): Evaluation {
  const source = graph.sources.get(where.id);
  const offset = source ? originalOffset(source.map, source.text, where.line, where.column) : undefined;
  if (offset === undefined) return result;
  if (where.id === graph.entry) return { ...result, at: { start: offset, end: offset } };
  const { line, column } = new LineIndex(source!.text).span(offset, offset);
  return { ...result, message: result.message.replace(/^cannot evaluate definition: /, `cannot evaluate definition: ${where.id}:${line}:${column}: `) };
}

interface Where {
  readonly id: string;
  readonly line: number;
  readonly column: number;
}

/** The child's one line: data, a message (with where it was thrown), or which of its limits ended the evaluation; `end`: the process ends after it. */
function parseResult(line: string): { result: (Evaluation & { where?: Where }) | 'timed out' | 'out of memory' | undefined; end: boolean } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(line);
  } catch {
    return { result: undefined, end: true };
  }
  if (typeof parsed !== 'object' || parsed === null || !('ok' in parsed)) return { result: undefined, end: true };
  return { result: outcome(parsed), end: 'end' in parsed && parsed.end === true };
}

function outcome(parsed: { ok: unknown }): (Evaluation & { where?: Where }) | 'timed out' | 'out of memory' | undefined {
  if (parsed.ok === true && 'data' in parsed) {
    // the child bounds it too; whatever it says, no deeper data reaches the compiler's walks
    const path = tooDeep(parsed.data, TYPESCRIPT_LIMITS.maxDepth);
    return path ? nestsTooDeep(path) : { ok: true, data: parsed.data };
  }
  if ('timedOut' in parsed && parsed.timedOut === true) return 'timed out';
  if ('outOfMemory' in parsed && parsed.outOfMemory === true) return 'out of memory';
  if (parsed.ok === false && 'path' in parsed && Array.isArray(parsed.path) && parsed.path.length <= TYPESCRIPT_LIMITS.maxDepth)
    return nestsTooDeep(parsed.path.filter((p): p is string | number => typeof p === 'string' || typeof p === 'number'));
  if (parsed.ok === false && 'message' in parsed && typeof parsed.message === 'string') {
    const where = 'where' in parsed ? parsed.where : undefined;
    const valid =
      typeof where === 'object' &&
      where !== null &&
      'id' in where &&
      typeof where.id === 'string' &&
      'line' in where &&
      Number.isInteger(where.line) &&
      'column' in where &&
      Number.isInteger(where.column);
    return { ok: false, message: parsed.message, ...(valid ? { where: where as Where } : {}) };
  }
  return undefined;
}

function nestsTooDeep(path: DataPath): Evaluation {
  return {
    ok: false,
    message: `the definition's data nests deeper than ${TYPESCRIPT_LIMITS.maxDepth} levels, at ${dataPathText(path.slice(0, 3))}${path.length > 3 ? '…' : ''}`,
    hint: 'a definition is plain data a few levels deep: build no recursive structure into it',
    path,
  };
}

/** The path to the first object or array deeper than `max` (the data itself is depth 1), walked without recursion. */
function tooDeep(data: unknown, max: number): DataPath | undefined {
  interface Place {
    readonly value: object;
    readonly depth: number;
    readonly holder?: Place;
    readonly key?: string | number;
  }
  if (data === null || typeof data !== 'object') return undefined;
  const stack: Place[] = [{ value: data, depth: 1 }];
  for (let place = stack.pop(); place; place = stack.pop()) {
    if (place.depth > max) {
      const path: (string | number)[] = [];
      for (let at = place; at.holder; at = at.holder) path.unshift(at.key!);
      return path;
    }
    const entries: [string | number, unknown][] = Array.isArray(place.value) ? place.value.map((v, i) => [i, v]) : Object.entries(place.value);
    for (const [key, value] of entries) if (value !== null && typeof value === 'object') stack.push({ value, depth: place.depth + 1, holder: place, key });
  }
  return undefined;
}
