'use strict';
// The sandbox's child process (evaluate-typescript.ts): Node's permission model (it may read this
// file and nothing else), an empty environment, a session of its own, heap and time limits. Its
// stdin is one JSON object, { entry, modules, timeoutMs }: the definition's modules, read and
// transpiled by the compiler. It prints one JSON line: { ok, data }, { ok: false, message } or
// { ok: false, timedOut: true }.
//
// The definition's code runs in a node:vm context into which nothing of this realm is passed
// (#37 item 2): no process, no require, no host object or function, whose .constructor.constructor
// would be this realm's Function and so its process. The context's global is created from a
// null-prototype object (an ordinary {} would lead back here through Object.prototype), its
// code may not be generated from strings or WebAssembly, and its microtasks run inside the time
// limit. The module system is realm() below, evaluated inside the context from its source text;
// each module's code is compiled into the context (vm.compileFunction with parsingContext), and
// only strings and the context's own functions cross in, only a string comes out.
const vm = require('node:vm');

/** Evaluated inside the context: the module system, and the one function that runs it. */
function realm() {
  'use strict';
  // taken before any definition code runs, which may replace the built-ins afterwards
  const { stringify, parse } = JSON;
  const { apply } = Reflect;
  const { create, freeze } = Object;
  const hasOwn = Object.prototype.hasOwnProperty;
  const { slice, indexOf, lastIndexOf } = String.prototype;
  const { min } = Math;
  const toString = String;
  const modules = create(null);
  // what a definition imports from the package: identity helpers, so the sandbox needs nothing else of the compiler
  const helpers = freeze({ defineClusterSet: (definition) => definition });

  function text(value) {
    try {
      const s = toString(value !== null && typeof value === 'object' && 'message' in value ? value.message : value);
      const end = apply(indexOf, s, ['\n']);
      return apply(slice, s, [0, min(end < 0 ? s.length : end, 500)]);
    } catch {
      return 'it threw a value that cannot be shown';
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

  return {
    define(id, fn, requires, json) {
      modules[id] = { id, fn, json, requires: parse(requires), module: { exports: {} }, state: 'new' };
    },
    run(entry) {
      try {
        const exported = load(entry);
        const data = exported !== null && typeof exported === 'object' && 'default' in exported ? exported.default : exported;
        if (data === undefined) return stringify({ ok: false, message: 'definition has no default export' });
        if (typeof data === 'function' || typeof data === 'symbol')
          return stringify({ ok: false, message: `the definition is not plain data: its default export is a ${typeof data}` });
        try {
          return stringify({ ok: true, data });
        } catch (err) {
          return stringify({ ok: false, message: `the definition is not plain data: ${text(err)}` });
        }
      } catch (err) {
        return stringify({ ok: false, message: `cannot evaluate definition: ${text(err)}` });
      }
    },
  };
}

const PARAMETERS = ['exports', 'require', 'module', '__filename', '__dirname'];

function evaluate({ entry, modules, timeoutMs }) {
  const global = Object.create(null);
  const context = vm.createContext(global, { name: 'definition', codeGeneration: { strings: false, wasm: false }, microtaskMode: 'afterEvaluate' });
  const system = vm.runInContext(`(${realm.toString()})()`, context);
  for (const m of modules) {
    let fn;
    if (m.kind === 'js') {
      try {
        fn = vm.compileFunction(m.code, PARAMETERS, { parsingContext: context, filename: m.id });
      } catch (err) {
        return { ok: false, message: `cannot evaluate definition: ${m.id}: ${err instanceof Error ? err.message.split('\n')[0] : 'it does not compile'}` };
      }
    }
    system.define(m.id, fn, JSON.stringify(m.requires), m.kind === 'json' ? m.code : undefined);
  }
  // the context's own function, called from a script of the context so that the time limit holds
  global.run = system.run;
  try {
    const result = vm.runInContext(`run(${JSON.stringify(entry)})`, context, { timeout: timeoutMs });
    return typeof result === 'string' ? result : { ok: false, message: 'the definition did not return its data' };
  } catch (err) {
    // only this realm's errors are looked at: anything else came from the definition
    if (err instanceof Error && err.code === 'ERR_SCRIPT_EXECUTION_TIMEOUT') return { ok: false, timedOut: true };
    return { ok: false, message: 'the evaluation of the definition failed' };
  }
}

const chunks = [];
process.stdin.on('data', (chunk) => chunks.push(chunk));
process.stdin.on('end', () => {
  let result;
  try {
    result = evaluate(JSON.parse(Buffer.concat(chunks).toString('utf8')));
  } catch (err) {
    result = { ok: false, message: `the sandbox failed: ${err instanceof Error ? err.message.split('\n')[0] : 'unknown error'}` };
  }
  process.stdout.write(`${typeof result === 'string' ? result : JSON.stringify(result)}\n`, () => process.exit(0));
});
