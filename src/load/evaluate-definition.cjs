'use strict';
// Runs one TypeScript definition in a child process that the compiler starts with Node's
// permission model (no file writes, no child processes, no workers, reads limited to the
// definition's folder and node_modules), an empty environment, and time and memory limits
// (evaluate-typescript.ts). Prints one JSON line: { ok, data } or { ok: false, message }.
// Plain CommonJS on purpose: no loader hooks (they need a worker thread); TypeScript is
// transpiled with the compiler's own `typescript` package, one file at a time.
const { readFileSync } = require('node:fs');
const Module = require('node:module');

const [typescriptPath, file] = process.argv.slice(2);
const ts = require(typescriptPath);

function compileTypeScript(module, filename) {
  const source = readFileSync(filename, 'utf8');
  const { outputText } = ts.transpileModule(source, {
    // as .ts: TypeScript keeps .mts output as ES modules, which require() cannot run here
    fileName: filename.replace(/\.[mc]ts$/, '.ts'),
    compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022, esModuleInterop: true },
  });
  module._compile(outputText, filename);
}
for (const extension of ['.ts', '.mts', '.cts']) Module._extensions[extension] = compileTypeScript;

// what a definition imports from the package: identity helpers, so the sandbox needs nothing else of the compiler
const definitionHelpers = Object.freeze({ defineClusterSet: (definition) => definition });
const load = Module._load;
Module._load = function (request, ...rest) {
  if (request === 'antrea-clusterset') return definitionHelpers;
  return load.call(this, request, ...rest);
};

let result;
try {
  const exported = require(file);
  const data = exported && typeof exported === 'object' && 'default' in exported ? exported.default : exported;
  result = data === undefined ? { ok: false, message: 'definition has no default export' } : { ok: true, data };
} catch (err) {
  result = { ok: false, message: `cannot evaluate definition: ${String((err && err.message) || err).split('\n')[0]}` };
}
let line;
try {
  line = JSON.stringify(result);
} catch (err) {
  line = JSON.stringify({ ok: false, message: `the definition is not plain data: ${String((err && err.message) || err).split('\n')[0]}` });
}
process.stdout.write(`${line}\n`);
