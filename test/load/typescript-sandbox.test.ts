import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { validateDefinitions } from '../../src/pipeline/compile';
import { TYPESCRIPT_LIMITS } from '../../src/load/evaluate-typescript';
import { LATEST } from '../helpers/releases';
import { SOAK } from '../helpers/soak';

// A TypeScript definition from a pull request is untrusted code (#14 item 1): it runs in QuickJS
// compiled to WebAssembly (#48), in a child process without the environment, file writes, child
// processes or workers, within time and memory limits, and whatever it does, the other
// definitions are still checked. A thrown error is reported where it was thrown (#49 item 12).

const tmp = mkdtempSync(join(tmpdir(), 'clusterset-sandbox-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const dir = join(tmp, 'clustersets');
mkdirSync(dir);

const valid = (extra = '') => `import { defineClusterSet } from 'antrea-clusterset';
${extra}
export default defineClusterSet({
  apiVersion: 'antrea-clusterset/v1alpha1',
  kind: 'ClusterSetDefinition',
  metadata: { name: NAME },
  spec: {
    antrea: { version: '${LATEST}' },
    leader: { clusterID: 'north', server: 'https://172.18.0.1:6443' },
    clusters: [{ clusterID: 'north', member: false }, { clusterID: 'east', serviceCIDR: '10.96.0.0/16', gateways: [{ node: 'east-1' }] }],
  },
});
`;
const write = (name: string, text: string) => {
  const file = join(dir, name);
  writeFileSync(file, text);
  return file;
};
/**
 * A table's definitions checked by one command, as a pull request's are: one sandbox process
 * evaluates them one after the other, each in an engine of its own (typescript-escape.test.ts
 * proves that one leaves nothing for the next), so a table starts one process instead of one a
 * row. Each row reads back its own file's diagnostics; the command runs when the first row asks.
 */
function checkedTogether(stem: string, texts: readonly string[], others: readonly string[] = []) {
  const files = texts.map((text, i) => write(`${stem}-${i}.ts`, text));
  let check: ReturnType<typeof validateDefinitions> | undefined;
  return async (i: number) => {
    const { diagnostics, parsed } = await (check ??= validateDefinitions([...others, ...files]));
    const file = files[i]!;
    return { file, all: diagnostics, diagnostics: diagnostics.filter((d) => d.file === file), parsed: parsed.filter((p) => p.source.file === file) };
  };
}
/**
 * Rows checked under limits of their own (TYPESCRIPT_LIMITS' time and memory), with BROKEN_YAML:
 * in npm test the rows of equal limits by one command, one sandbox process for them (each
 * definition in an engine and a memory of its own, and one that exhausts its memory or time does
 * not stop the next: typescript-escape.test.ts), in the soak tier (test/helpers/soak.ts) a
 * command a row. Each row reads back its own file's diagnostics.
 */
function limitedTogether(stem: string, rows: readonly { text: string; timeoutMs: number; memoryMb: number; maxOutputBytes?: number }[]) {
  const files = rows.map((row, i) => write(`${stem}-${i}.ts`, row.text));
  const key = (i: number) => (SOAK ? String(i) : `${rows[i]!.timeoutMs}/${rows[i]!.memoryMb}/${String(rows[i]!.maxOutputBytes)}`);
  const checks = new Map<string, ReturnType<typeof validateDefinitions>>();
  const check = async (i: number) => {
    const limits = { ...TYPESCRIPT_LIMITS };
    const { timeoutMs, memoryMb, maxOutputBytes = limits.maxOutputBytes } = rows[i]!;
    Object.assign(TYPESCRIPT_LIMITS, { timeoutMs, memoryMb, maxOutputBytes });
    try {
      return await validateDefinitions([BROKEN_YAML, ...files.filter((_, j) => key(j) === key(i))]);
    } finally {
      Object.assign(TYPESCRIPT_LIMITS, limits);
    }
  };
  return async (i: number) => {
    if (!checks.has(key(i))) checks.set(key(i), check(i));
    const { diagnostics } = await checks.get(key(i))!;
    return { file: files[i]!, diagnostics };
  };
}

// a YAML definition with an error: it must be reported whatever the TypeScript one did
const BROKEN_YAML = write(
  'broken.yaml',
  'apiVersion: antrea-clusterset/v1alpha1\nkind: ClusterSetDefinition\nmetadata: { name: other }\nspec:\n  leader: { clusterID: a }\n  clusters: [{ clusterID: a, podCIDR: [] }]\n',
);

describe('a TypeScript definition runs without powers', () => {
  test('it cannot read the environment: a secret of the CI job does not reach the data', async () => {
    process.env.CLUSTERSET_TEST_SECRET = 'ghp_notreallyasecret';
    // written to load whether or not it finds a process: a definition has none (see the escapes below)
    const file = write('env.ts', valid("const NAME = 'env-' + ((globalThis as any).process?.env?.CLUSTERSET_TEST_SECRET ?? 'none');"));
    // test files share their worker's process (isolate: false): the secret must not outlive this test
    const { parsed, diagnostics } = await validateDefinitions([file]).finally(() => delete process.env.CLUSTERSET_TEST_SECRET);
    expect(diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    expect(parsed[0]!.definition.metadata.name).toBe('env-none');
  });

  const pwned = join(tmp, 'pwned');
  const POWERS = [
    {
      name: 'write a file',
      code: "require('node:fs').writeFileSync(PWNED, 'x');",
      module: 'node:fs',
    },
    {
      name: 'start a process',
      code: "require('node:child_process').execSync('touch ' + PWNED);",
      module: 'node:child_process',
    },
    {
      name: 'start a worker',
      code: "new (require('node:worker_threads').Worker)('require(\"node:fs\").writeFileSync(' + JSON.stringify(PWNED) + ', \"x\")', { eval: true });",
      module: 'node:worker_threads',
    },
    {
      name: 'read a file outside its folder',
      code: "require('fs').readFileSync('/etc/hostname');",
      module: 'fs',
    },
  ];
  const powers = checkedTogether(
    'power',
    POWERS.map(({ code }) => valid(`declare const require: any; const PWNED = ${JSON.stringify(pwned)}; ${code} const NAME = 'x';`)),
  );
  test.each(POWERS.map((row, i) => ({ ...row, i })))('it cannot $name: the import is refused where it is written', async ({ code, module, i }) => {
    const column =
      valid(`declare const require: any; const PWNED = ${JSON.stringify(pwned)}; ${code}`)
        .split('\n')[1]!
        .indexOf(`'${module}'`) + 1;
    const { file, diagnostics } = await powers(i);
    expect(diagnostics).toMatchObject([
      { code: 'typescript-evaluation', severity: 'error', file, line: 2, column, message: expect.stringContaining(`"${module}"`) as unknown },
    ]);
    expect(existsSync(pwned)).toBe(false);
  });

  const LOCATED: readonly { name: string; code: string; message: RegExp; line?: number; column?: number; timeoutMs?: number }[] = [
    // where `process` is used (#49 item 12), not at the top of the file
    { name: 'process.exit(0)', code: 'process.exit(0);', message: /cannot evaluate definition: 'process' is not defined/, line: 2, column: 1 },
    { name: 'a throw', code: "throw new Error('boom');", message: /cannot evaluate definition: boom/, line: 2 },
    {
      name: 'a throw of a value that throws when shown',
      code: 'throw { get message() { throw new Error("no"); } };',
      message: /it threw a value that cannot be shown/,
    },
    // a timeout is its only outcome, so a short one (a spinning child costs a core until it ends):
    // however late the child starts, the outcome is the same diagnostic
    { name: 'an endless loop', code: 'for (;;) {}', message: /took longer than/, timeoutMs: 250 },
    {
      name: 'exhausting memory',
      code: 'const hog: string[] = []; for (;;) hog.push("x".repeat(1e6) + hog.length);',
      message: /ran out of memory|took longer than/,
      timeoutMs: 3_000,
    },
  ];
  // a case whose outcome is not a timeout gets a limit no load reaches: a loaded machine once took
  // longer than 3 s to start the child, and the diagnostic said so instead; a small memory fills
  // sooner: the memory case ends in a fraction of the time (32 MB leave the definition and the
  // engine their own room)
  const located = limitedTogether(
    'hostile',
    LOCATED.map(({ code, timeoutMs = 30_000 }) => ({ text: valid(`${code} const NAME = 'x';`), timeoutMs, memoryMb: 32 })),
  );
  test.each(LOCATED.map((row, i) => ({ ...row, i })))(
    '$name is a located diagnostic, and the other files are still checked',
    async ({ message, line = 1, column = line === 1 ? 1 : undefined, i }) => {
      const { file, diagnostics } = await located(i);
      expect(diagnostics.find((d) => d.file === file)).toMatchObject({
        code: 'typescript-evaluation',
        line,
        column: column ?? (expect.any(Number) as unknown),
        message: expect.stringMatching(message) as unknown,
      });
      expect(diagnostics.some((d) => d.file === BROKEN_YAML && d.severity === 'error')).toBe(true);
    },
    60_000,
  );

  // only data crosses back, as JSON: whatever else a definition hands back is a diagnostic at it
  const SHAPES = [
    { name: 'nothing', text: 'declare const module: any;\nmodule.exports = undefined;', message: /definition has no default export/ },
    { name: 'a function', text: 'export default () => ({});', message: /not plain data: its default export is a function/ },
    { name: 'a BigInt inside', text: 'export default { n: 1n };', message: /not plain data: Do not know how to serialize a BigInt/ },
    { name: 'a cycle', text: 'const a: any = {}; a.a = a; export default a;', message: /not plain data: circular reference/ },
    { name: 'a getter that throws', text: "export default { get spec() { throw new Error('no spec'); } };", message: /not plain data: no spec/ },
    {
      name: 'a Proxy that throws on every trap',
      text: "export default new Proxy({}, { get() { throw new Error('trap'); }, has() { throw new Error('trap'); } });",
      message: /trap/,
    },
  ];
  const shapes = checkedTogether(
    'shape',
    SHAPES.map(({ text }) => text),
  );
  test.each(SHAPES.map((row, i) => ({ ...row, i })))('a default export that is not data ($name) is a diagnostic at the file', async ({ message, i }) => {
    const { diagnostics } = await shapes(i);
    expect(diagnostics).toMatchObject([{ code: 'typescript-evaluation', line: 1, column: 1, message: expect.stringMatching(message) as unknown }]);
  });

  test('console prints nothing, and a definition that logs still loads', async () => {
    const file = write('logs.ts', valid("console.log('computing'); console.warn('a warning'); const NAME = 'logs';"));
    const { parsed, diagnostics } = await validateDefinitions([file]);
    expect(diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    expect(parsed[0]!.definition.metadata.name).toBe('logs');
  });

  test('--no-typescript refuses TypeScript definitions without running them', async () => {
    const file = write('off.ts', valid("const NAME = 'off';"));
    const { diagnostics } = await validateDefinitions([file], { typescript: false });
    expect(diagnostics).toMatchObject([{ code: 'typescript-evaluation', message: 'TypeScript definitions are turned off (--no-typescript)' }]);
  });
});

// #37 item 2: definition code must not reach the CLI's process or any other. Each probe tries to
// get hold of Node's `process` (the key to signals, the environment and every module); had it one,
// it would export a valid definition named "escaped", so a probe that works is a definition
// without errors. Each must instead end as a typescript-evaluation diagnostic at its file.
const ESCAPE = `if (!p || typeof p.pid !== 'number') throw new Error('contained'); const NAME = 'escaped';`;
describe('definition code cannot reach the process that runs it', () => {
  const PROBES: readonly { name: string; code: string; files?: Record<string, string>; message?: RegExp }[] = [
    { name: 'globalThis.process', code: 'const p = (globalThis as any).process;' },
    { name: 'a bare process', code: 'declare const process: any; const p = process;' },
    { name: "the global object's Function constructor", code: "const p = (globalThis as any).constructor.constructor('return process')();" },
    { name: "an array's Function constructor", code: "const p = ([] as any).constructor.constructor('return process')();" },
    { name: "console's Function constructor", code: "const p = (console as any).log.constructor('return process')();" },
    {
      // any host object or function handed into the context leads back to the host's Function
      name: "every global's Function constructor",
      code: `let p: any;
for (const key of Reflect.ownKeys(globalThis)) {
  const v = (globalThis as any)[key];
  for (const f of [v?.constructor, v?.constructor?.constructor]) {
    try { p ??= f?.('return process')(); } catch { /* the next one */ }
  }
}`,
    },
    { name: 'new Function', code: "const p = new Function('return process')();" },
    { name: 'eval', code: "const p = eval('process');" },
    { name: 'require of a built-in', code: "declare const require: any; const p = require('node:process');" },
    { name: 'require of a built-in by a computed name', code: "declare const require: any; const p = require(['node', 'process'].join(':'));" },
    { name: "module's constructor (Node's Module)", code: "declare const module: any; const p = module.constructor._load('node:process');" },
    { name: "require's Function constructor", code: "declare const require: any; const p = require.constructor('return process')();" },
    // import() resolves after the data is taken: its refusal must be the reason the definition failed
    { name: 'import() of a built-in', code: "let p: any; void import('node:child_process');", message: /node:child_process/ },
    // eval is the engine's own, and so is its import(): it loads nothing
    { name: 'import() inside eval', code: 'let p: any; void eval("import(\'node:process\')");', message: /contained/ },
    {
      name: 'Error.prepareStackTrace and the frames it is given',
      code: `let p: any;
(Error as any).prepareStackTrace = (_: unknown, frames: any[]) => {
  for (const f of frames) for (const v of [f.getThis?.(), f.getFunction?.()]) {
    if (v && (v as any).process) p = (v as any).process;
    try { p ??= v?.constructor?.constructor?.('return process')(); } catch { /* the next frame */ }
  }
  return '';
};
void new Error().stack;`,
    },
    {
      name: 'the chain of callers (from a sloppy-mode module)',
      files: {
        'callers.js': `exports.find = function find() {
  for (let c = find.caller; c; c = c.caller) {
    try { const p = c.constructor('return process')(); if (p) return p; } catch (e) { /* the next caller */ }
  }
};`,
      },
      code: "// @ts-expect-error a JavaScript module\nimport { find } from './callers.js';\nconst p = find();",
    },
  ];
  for (const [name, text] of PROBES.flatMap((p) => Object.entries(p.files ?? {}))) write(name, text);
  const probes = checkedTogether(
    'escape',
    PROBES.map(({ code }) => valid(`${code}\n${ESCAPE}`)),
    [BROKEN_YAML],
  );
  test.each(PROBES.map((row, i) => ({ ...row, i })))('$name', async ({ message = /./, i }) => {
    const { diagnostics, parsed, all } = await probes(i);
    expect(parsed.map((p) => p.definition.metadata.name)).not.toContain('escaped');
    expect(diagnostics.filter((d) => d.severity === 'error')).toEqual([
      expect.objectContaining({ code: 'typescript-evaluation', message: expect.stringMatching(message) as unknown }),
    ]);
    expect(all.some((d) => d.file === BROKEN_YAML && d.severity === 'error')).toBe(true);
  });

  const LIMITED: readonly {
    name: string;
    code: string;
    message: RegExp;
    data?: string;
    line?: number;
    timeoutMs?: number;
    memoryMb?: number;
    maxOutputBytes?: number;
  }[] = [
    // the engine has no Atomics: the wait cannot even start
    { name: 'Atomics.wait', code: 'Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0);', message: /'Atomics' is not defined/, line: 2 },
    {
      name: 'a microtask loop',
      code: 'void (function again(): void { void Promise.resolve().then(again); })();',
      message: /took longer than/,
      timeoutMs: 250,
    },
    { name: 'an async loop', code: 'void (async () => { for (;;) await null; })();', message: /took longer than/, timeoutMs: 250 },
    { name: 'a string too long to exist', code: "const huge = 'x'.repeat(2 ** 30);", message: /invalid string length/, line: 2 },
    { name: 'endless recursion', code: 'const f = (n: number): number => f(n + 1) + 1; f(0);', message: /stack overflow/, line: 2 },
    {
      name: 'data nested past any stack',
      code: 'let deep: any = []; for (let i = 0; i < 100000; i++) deep = [deep];',
      data: 'deep',
      // refused at 64 levels (YAML's limit), at the key that holds it; the definitions after it in
      // the same command load (typescript-escape.test.ts)
      message: /nests deeper than 64 levels, at extra\[0\]\[0\]/,
      line: 5,
    },
    { name: 'a string split into a memory-filling array', code: "const huge = 'x'.repeat(2 ** 27).split('');", message: /ran out of memory/ },
    {
      name: 'data larger than the limit',
      code: "const pad = 'x'.repeat(2 ** 21);",
      data: 'pad',
      // the output limit lowered to 1 MiB for this row (the default, 16 MiB, is the same check on
      // the compiler's side of the pipe; the interpreter took seconds to write that much JSON)
      maxOutputBytes: 2 ** 20,
      message: /larger than 1048576 bytes/,
      timeoutMs: 5_000,
    },
    // the engine has no WebAssembly of its own, and none of the host's
    {
      name: 'WebAssembly',
      code: 'void new WebAssembly.Module(new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0]));',
      message: /'WebAssembly' is not defined/,
      line: 2,
    },
  ];
  // the rows that end on the time limit wait it out, as the endless loop above does, a quarter of
  // a second (their only outcome); the others have two to exhaust memory in, a small one (32 MB)
  const limited = limitedTogether(
    'limits',
    LIMITED.map(({ code, data, timeoutMs = 2_000, memoryMb = 32, maxOutputBytes }) => ({
      text: valid(`${code} const NAME = 'x';`).replace("kind: 'ClusterSetDefinition',", `kind: 'ClusterSetDefinition',${data ? ` extra: ${data},` : ''}`),
      timeoutMs,
      memoryMb,
      maxOutputBytes,
    })),
  );
  test.each(LIMITED.map((row, i) => ({ ...row, i })))(
    '$name ends as a diagnostic within the limits, and the other files are still checked',
    async ({ message, line = 1, i }) => {
      const { file, diagnostics } = await limited(i);
      expect(diagnostics.filter((d) => d.file === file && d.severity === 'error')).toEqual([
        expect.objectContaining({ code: 'typescript-evaluation', line, message: expect.stringMatching(message) as unknown }),
      ]);
      expect(diagnostics.some((d) => d.file === BROKEN_YAML && d.severity === 'error')).toBe(true);
    },
    30_000,
  );
});
