'use strict';
// The sandbox's child process (evaluate-typescript.ts): Node's permission model (it may read this
// file and the QuickJS packages, nothing else), an empty environment, a session of its own. Its
// stdin is one JSON object a line, { entry, modules, deadline, stackBytes, maxDepth }, for each
// definition of a command: its modules, read, syntax-checked and transpiled by the compiler. For
// each it prints one JSON line:
// { ok, data }, { ok: false, message, where? }, { ok: false, message, path } (data nested deeper
// than maxDepth), { ok: false, timedOut: true } or { ok: false, outOfMemory: true }; with
// `end: true` when the process ends after it (the compiler starts another for the next one).
//
// The definition's code does not run in Node (#48 item 1): it runs in QuickJS, a JavaScript engine
// compiled to WebAssembly, whose realm holds only the language's built-ins. Nothing of Node is
// put into it: no process, no require, no import() loader (the engine's own refuses every
// specifier), no timers, no network, no host function. The module system is realm() below,
// evaluated inside the engine from its source text; each module is compiled there from the text
// we transpiled. Only strings cross in, only one string (JSON) comes out. The engine's memory is
// a WebAssembly.Memory of a fixed maximum that every allocation of QuickJS lives in (objects,
// strings, typed arrays), and an interrupt handler ends the run at the deadline.
// the engine's modules, by the real paths the compiler found, and the engine's memory in bytes
// (argv: core, the sync release build, memory): the engine starts while the compiler still
// transpiles the definition
const [corePath, variantPath, memoryArg] = process.argv.slice(2);
// V8 compiles the engine's WebAssembly function by function as it is first called, with its
// baseline compiler only: a definition runs for milliseconds, and the optimizing tier's
// background work would only delay the start and the exit (measured: half the time of a
// definition). An unknown flag is ignored, so a V8 without one only loses the time.
for (const flag of ['--liftoff-only', '--wasm-lazy-compilation']) require('node:v8').setFlagsFromString(flag);
const { newQuickJSWASMModuleFromVariant, newVariant } = require(corePath);
// the package's CommonJS export is { default: variant }; its Emscripten module is loaded with
// require from beside it, not by the package's import(), which would start Node's ES module loader
// (a third of the child's start-up, measured with --cpu-prof)
const emscriptenModule = require(require('node:path').join(require('node:path').dirname(variantPath), 'emscripten-module.cjs'));
const releaseSync = { ...require(variantPath).default, importModuleLoader: () => Promise.resolve(emscriptenModule) };

/** Evaluated inside QuickJS: the module system, and the one function that runs it. */
function realm(wrapperLength, maxDepth) {
  'use strict';
  // taken before any definition code runs, which may replace the built-ins afterwards
  const { stringify, parse } = JSON;
  const { apply } = Reflect;
  const { create, freeze } = Object;
  const hasOwn = Object.prototype.hasOwnProperty;
  const { slice, indexOf, lastIndexOf } = String.prototype;
  const { exec } = RegExp.prototype;
  const { min } = Math;
  const { isArray } = Array;
  const WeakMapOf = WeakMap;
  const { get: weakGet, set: weakSet } = WeakMap.prototype;
  const toString = String;
  const modules = create(null);
  // what a definition imports from the package: identity helpers, so the sandbox needs nothing else of the compiler
  const helpers = freeze({ defineClusterSet: (definition) => definition });
  // console prints nothing, as it did in the node:vm realm: a definition that logs still loads
  const quiet = () => undefined;
  globalThis.console = freeze({ log: quiet, info: quiet, warn: quiet, error: quiet, debug: quiet, trace: quiet, dir: quiet, table: quiet });

  function text(value) {
    try {
      const s = toString(value !== null && typeof value === 'object' && 'message' in value ? value.message : value);
      const end = apply(indexOf, s, ['\n']);
      return apply(slice, s, [0, min(end < 0 ? s.length : end, 500)]);
    } catch {
      return 'it threw a value that cannot be shown';
    }
  }

  /** The innermost frame of a thrown error in a module of the definition: `id:line:column` of the transpiled code. */
  function where(err) {
    try {
      const stack = err !== null && typeof err === 'object' ? err.stack : undefined;
      if (typeof stack !== 'string') return undefined;
      const frame = /\((.+?):(\d+):(\d+)\)/g;
      for (let found = apply(exec, frame, [stack]); found; found = apply(exec, frame, [stack])) {
        // the module's wrapper is on its first line, before its code
        if (found[1] in modules) return { id: found[1], line: +found[2], column: +found[3] - (found[2] === '1' ? wrapperLength : 0) };
      }
      return undefined;
    } catch {
      return undefined;
    }
  }

  function load(id) {
    const m = modules[id];
    if (m.state !== 'new') return m.module.exports;
    m.state = 'loading';
    if (m.fn === undefined) m.module.exports = parse(m.json);
    else {
      const require = (specifier) => {
        const target = typeof specifier === 'string' && apply(hasOwn, m.requires, [specifier]) ? m.requires[specifier] : undefined;
        if (target === '#antrea-clusterset') return helpers;
        if (target === undefined) {
          const named = typeof specifier === 'string' ? `"${apply(slice, specifier, [0, 200])}"` : 'a module by a value that is not a string';
          throw new Error(`cannot import ${named}: a definition imports antrea-clusterset and files of its own folder, by literal paths`);
        }
        return load(target);
      };
      const slash = apply(lastIndexOf, m.id, ['/']);
      apply(m.fn, m.module.exports, [m.module.exports, require, m.module, m.id, slash < 0 ? '.' : apply(slice, m.id, [0, slash])]);
    }
    m.state = 'loaded';
    return m.module.exports;
  }

  /**
   * The data as JSON, its nesting bounded as YAML's is (load-yaml.ts): stringify's recursion would
   * otherwise run on the host's stack, past the engine's own limit (#54). Each object's place is
   * kept by its holder (stringify's `this`), so the path to the first one too deep can be told.
   */
  function json(data) {
    const places = new WeakMapOf();
    const tooDeep = { path: undefined };
    // a function, not an arrow: stringify calls it with the value's holder as `this`
    const bounded = function (key, value) {
      if (value === null || typeof value !== 'object') return value;
      const holder = apply(weakGet, places, [this]);
      const place = { depth: holder === undefined ? 1 : holder.depth + 1, holder, key: isArray(this) ? +key : key };
      if (place.depth > maxDepth) {
        const path = [];
        for (let at = place; at.holder !== undefined; at = at.holder) path[at.depth - 2] = at.key;
        tooDeep.path = path;
        throw tooDeep;
      }
      apply(weakSet, places, [value, place]);
      return value;
    };
    let text;
    try {
      text = stringify(data, bounded);
    } catch (err) {
      if (err === tooDeep) return stringify({ ok: false, message: `the definition's data nests deeper than ${maxDepth} levels`, path: tooDeep.path });
      throw err;
    }
    if (typeof text !== 'string') return stringify({ ok: false, message: 'the definition is not plain data: it has no JSON value' });
    return `{"ok":true,"data":${text}}`;
  }

  let exported;
  return {
    define(id, fn, requires, json) {
      modules[id] = { id, fn, json, requires: parse(requires), module: { exports: {} }, state: 'new' };
    },
    /** Runs the entry module; a message when it threw (its promises' jobs run before data() is asked). */
    run(entry) {
      try {
        exported = load(entry);
        return undefined;
      } catch (err) {
        return stringify({ ok: false, message: `cannot evaluate definition: ${text(err)}`, where: where(err) });
      }
    },
    data() {
      try {
        const data = exported !== null && typeof exported === 'object' && 'default' in exported ? exported.default : exported;
        if (data === undefined) return stringify({ ok: false, message: 'definition has no default export' });
        if (typeof data === 'function' || typeof data === 'symbol')
          return stringify({ ok: false, message: `the definition is not plain data: its default export is a ${typeof data}` });
        return json(data);
      } catch (err) {
        return stringify({ ok: false, message: `the definition is not plain data: ${text(err)}` });
      }
    },
  };
}

/** Each module is a function of the CommonJS parameters, on the first line so that lines stay those of the transpiled code. */
const WRAPPER = '(function (exports, require, module, __filename, __dirname) {';

// the engine's WebAssembly, compiled once for the process: each definition gets an instance of its own
const compiled = WebAssembly.compile(require('node:fs').readFileSync(require('node:path').join(require('node:path').dirname(variantPath), 'emscripten-module.wasm')));

/** An engine with its own memory: a WebAssembly.Memory no allocation can grow past, fresh for each definition. */
async function engine(memoryBytes) {
  const pages = Math.max(1, Math.floor(memoryBytes / 65536));
  const memory = new WebAssembly.Memory({ initial: Math.min(256, pages), maximum: pages });
  return newQuickJSWASMModuleFromVariant(newVariant(releaseSync, { wasmModule: () => compiled, wasmMemory: memory }));
}

// the next definition's engine is made ready while the compiler transpiles it
let started = engine(Number(memoryArg));
// awaited by evaluate(), which reports its failure
started.catch(() => undefined);

async function evaluate({ entry, modules, deadline, stackBytes, maxDepth }) {
  const QuickJS = await started;
  started = engine(Number(memoryArg));
  started.catch(() => undefined);
  const runtime = QuickJS.newRuntime();
  let interrupted = false;
  runtime.setInterruptHandler(() => (interrupted ||= Date.now() > deadline));
  runtime.setMaxStackSize(stackBytes);
  const context = runtime.newContext();
  // the outcome of one evaluation in the engine: its value as a string, or why it failed
  const call = (result) => {
    if (result.error) {
      const error = context.dump(result.error);
      result.error.dispose();
      if (interrupted) return { timedOut: true };
      const message = error && typeof error === 'object' ? `${error.name}: ${error.message}` : String(error);
      return /out of memory/i.test(message) ? { outOfMemory: true } : { message };
    }
    const value = context.typeof(result.value) === 'string' ? context.getString(result.value) : undefined;
    result.value.dispose();
    return { value };
  };
  const failed = (outcome) =>
    outcome.timedOut ? { ok: false, timedOut: true } : outcome.outOfMemory ? { ok: false, outOfMemory: true } : undefined;
  const system = context.evalCode(`(${realm.toString()})(${WRAPPER.length}, ${Number(maxDepth)})`, 'realm');
  if (system.error) return failed(call(system)) ?? { ok: false, message: 'the sandbox failed to start' };
  for (const m of modules) {
    let fn;
    if (m.kind === 'js') {
      const compiled = context.evalCode(`${WRAPPER}${m.code}\n})`, m.id);
      if (compiled.error) {
        const outcome = call(compiled);
        return failed(outcome) ?? { ok: false, message: `cannot evaluate definition: ${m.id}: ${outcome.message}` };
      }
      fn = compiled.value;
    }
    const args = [context.newString(m.id), fn ?? context.undefined, context.newString(JSON.stringify(m.requires)), m.kind === 'json' ? context.newString(m.code) : context.undefined];
    const defined = call(context.callFunction(context.getProp(system.value, 'define'), system.value, ...args));
    if (failed(defined)) return failed(defined);
  }
  const ran = call(context.callFunction(context.getProp(system.value, 'run'), system.value, context.newString(entry)));
  if (failed(ran)) return failed(ran);
  if (ran.value !== undefined) return ran.value;
  // the definition's promise jobs run to their end, within the same deadline, before its data is taken
  // (a job that throws stops the queue: the others are run on the next turn)
  for (let jobs = runtime.executePendingJobs(-1); jobs.error || jobs.value > 0; jobs = runtime.executePendingJobs(-1)) {
    const outcome = jobs.error ? failed(call(jobs)) : undefined;
    if (outcome) return outcome;
  }
  // an interrupted job ends the queue as if it were empty: the deadline says what happened
  if (interrupted) return { ok: false, timedOut: true };
  const data = call(context.callFunction(context.getProp(system.value, 'data'), system.value));
  return failed(data) ?? data.value ?? { ok: false, message: 'the definition did not return its data' };
}

/** One definition's outcome as the line to print, and whether this process may go on to the next. */
async function answer(line) {
  try {
    const result = await evaluate(JSON.parse(line));
    return { line: typeof result === 'string' ? result : JSON.stringify(result), next: true };
  } catch (err) {
    // the engine's own abort (its memory exhausted where QuickJS cannot recover) ends here too,
    // and so does its recursion past V8's own stack (deeply nested data) before its limit noticed:
    // the process ends after the answer, since the instance that failed may be left broken
    const message = err instanceof Error ? err.message.split('\n')[0] : 'unknown error';
    const result = /out of memory|memory access out of bounds|Aborted/i.test(message)
      ? { ok: false, outOfMemory: true }
      : /Maximum call stack size exceeded/.test(message)
        ? { ok: false, message: 'cannot evaluate definition: stack overflow (its code recursed, or its data nests, too deeply)' }
        : { ok: false, message: `the sandbox failed: ${message}` };
    return { line: JSON.stringify({ ...result, end: true }), next: false };
  }
}

// one request a line, one answer a line, in order; the end of the input ends the process
let pending = [];
let queue = Promise.resolve(true);
process.stdin.on('data', (chunk) => {
  let start = 0;
  for (let nl = chunk.indexOf(10); nl >= 0; nl = chunk.indexOf(10, start)) {
    pending.push(chunk.subarray(start, nl));
    const line = Buffer.concat(pending).toString('utf8');
    pending = [];
    start = nl + 1;
    queue = queue.then(async (alive) => {
      if (!alive) return false;
      const { line: out, next } = await answer(line);
      await new Promise((written) => process.stdout.write(`${out}\n`, written));
      if (!next) process.exit(0);
      return next;
    });
  }
  if (start < chunk.length) pending.push(chunk.subarray(start));
});
process.stdin.on('end', () => queue.then(() => process.exit(0)));
