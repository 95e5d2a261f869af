import fc from 'fast-check';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import type { Diagnostic } from '../../src/diagnostics/diagnostic';
import { TYPESCRIPT_LIMITS } from '../../src/load/evaluate-typescript';
import { loadClusterSets } from '../../src/load/load-clustersets';
import { validateDefinitions } from '../../src/pipeline/compile';
import { notGatewayHa } from '../helpers/gateway-ha';
import { LATEST } from '../helpers/releases';
import { SOAK, soakRows } from '../helpers/soak';

// #48 item 1: a definition's code runs in a JavaScript engine compiled to WebAssembly (QuickJS),
// not in Node. These rows are the attacks that broke the node:vm sandbox (each was red on it):
// a module that the transpiler reads as JSX and V8 as a dynamic import(), whose host Error led to
// the child's process; typed arrays outside V8's heap limit; a time limit per file that added up;
// and a property: whatever a definition reaches from what its realm holds, no Node global and no
// host object is among it.

const tmp = mkdtempSync(join(tmpdir(), 'typescript-escape-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
let folders = 0;
/** A folder of its own per case, with the given files; the path of its `entry`. */
function folder(files: Record<string, string>, entry = 'definition.ts'): string {
  const dir = join(tmp, `case-${folders++}`, 'clustersets');
  mkdirSync(dir, { recursive: true });
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return join(dir, entry);
}

async function load(files: readonly string[]): Promise<{ data: unknown[]; diagnostics: Diagnostic[] }> {
  const diagnostics: Diagnostic[] = [];
  const sources = await loadClusterSets(files, diagnostics);
  return { data: sources.map((s) => s.data), diagnostics };
}

async function withLimits<T>(limits: Partial<Record<string, number>>, run: () => Promise<T>): Promise<T> {
  const saved = { ...TYPESCRIPT_LIMITS };
  Object.assign(TYPESCRIPT_LIMITS, limits);
  try {
    return await run();
  } finally {
    Object.assign(TYPESCRIPT_LIMITS, saved);
  }
}

// The review's escape: `await <b>import(x)//</b>` is JSX text to TypeScript (kept as it is) and, to
// V8, `await < b > import(x)` followed by a comment. Its Error, had it reached the host's, leads to
// a process, which writes a forged result in place of the sandbox's and exits.
const FORGER = `globalThis.await = 0;
globalThis.b = 0;
function grab(e) {
  const p = e.constructor.constructor('return process')();
  p.stdout.write(JSON.stringify({ ok: true, data: { escaped: typeof p.pid } }) + '\\n');
  p.exit(0);
}
export const probe = () => 0;
await <b>import(grab.name).catch(grab)//</b>;
`;
const IMPORTS_HELPER = `// @ts-expect-error a JavaScript module
import { probe } from './helper.js';
probe();
export default { fine: true };
`;

describe('the escapes of the vm sandbox', () => {
  test.each<{ name: string; files: Record<string, string>; entry?: string }>([
    { name: 'JSX in a .js module (the differential import())', files: { 'helper.js': FORGER } },
    { name: 'JSX in a .jsx module', files: { 'helper.jsx': FORGER }, entry: IMPORTS_HELPER.replace('./helper.js', './helper.jsx') },
    { name: 'a .tsx module', files: { 'helper.tsx': 'export const probe = () => <b>x</b>;' }, entry: IMPORTS_HELPER.replace('./helper.js', './helper.tsx') },
  ])('$name: refused before anything runs, at the import', async ({ files, entry = IMPORTS_HELPER }) => {
    const file = folder({ ...files, 'definition.ts': entry });
    const { data, diagnostics } = await load([file]);
    expect(data).toEqual([]);
    expect(diagnostics).toEqual([expect.objectContaining({ code: 'typescript-evaluation', file, line: 2, message: expect.stringMatching(/JSX/) as unknown })]);
  });

  test('a module that does not parse is refused, though only the definition is parsed before', async () => {
    const file = folder({ 'helper.js': 'export const probe = () => {;\n', 'definition.ts': IMPORTS_HELPER });
    const { data, diagnostics } = await load([file]);
    expect(data).toEqual([]);
    expect(diagnostics).toEqual([expect.objectContaining({ code: 'typescript-evaluation', file, message: "helper.js:2:1: '}' expected" })]);
  });

  test("a dynamic import()'s error and Function are the engine's own, and reach nothing", async () => {
    const file = folder({
      'definition.ts': `const found: string[] = [];
const name = ['node', 'process'].join(':');
void import(name).then(
  () => found.push('imported'),
  (e: any) => found.push(typeof e, String(e.constructor === Error), typeof e.constructor.constructor('return typeof process')()),
);
export default { found };
`,
    });
    const { data, diagnostics } = await load([file]);
    expect(diagnostics).toEqual([]);
    // the rejection ran before the data was taken (the engine's jobs are drained first)
    expect(data).toEqual([{ found: ['object', 'true', 'string'] }]);
  });

  test('typed arrays count against the memory limit: a diagnostic, not gigabytes of the machine', async () => {
    // 8 × 64 MiB: outside V8's old space, they passed a 96 MB heap limit
    const file = folder({
      'definition.ts': 'const hog: Uint8Array[] = [];\nfor (let i = 0; i < 8; i++) hog.push(new Uint8Array(64 << 20));\nexport default { n: hog.length };\n',
    });
    const { data, diagnostics } = await withLimits({ memoryMb: 64, maxOldSpaceMb: 64 }, () => load([file]));
    expect(data).toEqual([]);
    expect(diagnostics).toEqual([expect.objectContaining({ code: 'typescript-evaluation', file, message: expect.stringMatching(/out of memory/) as unknown })]);
  });

  // a command's definitions share one sandbox process, each in an engine (and a memory) of its own
  test('a definition leaves nothing for the next one, and one that hangs or exhausts memory does not stop the next', async () => {
    const first = folder(
      {
        'a-leaves.ts': '(globalThis as any).left = "by a"; (Object.prototype as any).polluted = true; export default { a: 1 };\n',
        'b-hangs.ts': 'for (;;) {}\nexport default {};\n',
        'c-hog.ts': 'const hog: Uint8Array[] = [];\nfor (;;) hog.push(new Uint8Array(1 << 24));\nexport default {};\n',
        'd-looks.ts': 'export default { left: typeof (globalThis as any).left, polluted: typeof ({} as any).polluted };\n',
      },
      'a-leaves.ts',
    );
    const paths = ['a-leaves.ts', 'b-hangs.ts', 'c-hog.ts', 'd-looks.ts'].map((f) => join(first, '..', f));
    // two seconds, not one: the first definition's time includes the sandbox process's start, and
    // so does the one after the hang's (as in typescript-sandbox.test.ts, whose rows of two seconds
    // each start a process); the hang spins a core for all of it
    const { data, diagnostics } = await withLimits({ timeoutMs: 2_000, memoryMb: 64 }, () => load(paths));
    expect(data).toEqual([{ a: 1 }, { left: 'undefined', polluted: 'undefined' }]);
    expect(diagnostics.map((d) => [d.file, d.message])).toEqual([
      [paths[1], 'evaluating the definition took longer than 2 s'],
      [paths[2], 'evaluating the definition ran out of memory (limit 64 MB)'],
    ]);
  }, 60_000);

  // A definition whose data nests past any stack (found by batching the sandbox's rows, #54): the
  // sandbox process ended after its answer, and the next definition, sent to it before its exit
  // was seen, failed "(exit code 0)". Its code may overflow the stack too (the engine's recursion
  // runs on the host's stack): the process still ends, and the next one starts another.
  const DEEP = 'let deep: any = [];\nfor (let i = 0; i < 100000; i++) deep = [deep];\nexport default { deep };\n';
  const OVERFLOW = 'let deep: any = [];\nfor (let i = 0; i < 100000; i++) deep = [deep];\nJSON.stringify(deep);\nexport default {};\n';
  // (each valid definition its own clusters and leader, so that two in one command are apart)
  const VALID = (name: string) => `import { defineClusterSet } from 'antrea-clusterset';
export default defineClusterSet({
  apiVersion: 'antrea-clusterset/v1alpha1',
  kind: 'ClusterSetDefinition',
  metadata: { name: '${name}' },
  spec: {
    antrea: { version: '${LATEST}' },
    leader: { clusterID: '${name}-north', server: 'https://172.18.0.${name.charCodeAt(0)}:6443' },
    clusters: [{ clusterID: '${name}-north', member: false }, { clusterID: '${name}-east', serviceCIDR: '10.96.0.0/16', gateways: [{ node: 'east-1' }, { node: 'east-2' }] }, { clusterID: '${name}-west', serviceCIDR: '10.97.0.0/16', gateways: [{ node: 'west-1' }, { node: 'west-2' }] }],
  },
});
`;
  type Kind = 'deep' | 'overflow' | 'valid';
  const TEXT = { deep: () => DEEP, overflow: () => OVERFLOW, valid: VALID };
  const EXPECTED = {
    deep: { line: 3, message: /^the definition's data nests deeper than 64 levels/ },
    overflow: { line: 1, message: /stack overflow/ },
  };
  // npm test: one command with each failure path followed by a valid definition (the depth bound,
  // which keeps the process, and the stack overflow, which ends it: the next one must start
  // another). The soak tier (test/helpers/soak.ts) adds every other order, each its own command.
  test.each<{ order: string; kinds: Kind[] }>(
    soakRows(
      [
        { order: 'deep, then valid, then an overflow, then valid', kinds: ['deep', 'valid', 'overflow', 'valid'] },
        { order: 'deep, then valid', kinds: ['deep', 'valid'] },
        { order: 'valid, then deep (the deep one last)', kinds: ['valid', 'deep'] },
        { order: 'two deep, then valid', kinds: ['deep', 'deep', 'valid'] },
        { order: 'an overflow, then valid', kinds: ['overflow', 'valid'] },
        { order: 'valid, then an overflow (last)', kinds: ['valid', 'overflow'] },
        { order: 'two overflows, then valid', kinds: ['overflow', 'overflow', 'valid'] },
      ],
      (_, i) => i === 0,
    ),
  )(
    'data nested past any stack, $order, in one validate: each its own diagnostic, the valid one loads',
    async ({ kinds }) => {
      const names = kinds.map((kind, i) => `${String.fromCharCode(97 + i)}-${kind}.ts`);
      const first = folder(Object.fromEntries(names.map((n, i) => [n, TEXT[kinds[i]!](n.replace('.ts', ''))])), names[0]);
      const paths = names.map((n) => join(first, '..', n));
      const { diagnostics, parsed } = await validateDefinitions(paths);
      expect(parsed.map((p) => p.source.file)).toEqual(paths.filter((_, i) => kinds[i] === 'valid'));
      const failing = kinds.flatMap((kind, i) => (kind === 'valid' ? [] : [{ file: paths[i]!, ...EXPECTED[kind] }]));
      expect(notGatewayHa(diagnostics).filter((d) => d.severity === 'error')).toEqual(
        failing.map(({ file, line, message }): unknown =>
          expect.objectContaining({
            code: 'typescript-evaluation',
            file,
            line,
            message: expect.stringMatching(message) as unknown,
            hint: expect.stringMatching(/data/) as unknown,
          }),
        ),
      );
      for (const d of diagnostics) expect(`${d.message} ${d.hint ?? ''}`).not.toMatch(/\n\s+at |exit code/);
    },
    60_000,
  );

  // the limit is YAML's (YAML_LIMITS.maxDepth): the data itself is level 1, `spec` level 2, and
  // `wraps` arrays around an empty object under `deep` put the object at level wraps + 3
  test.each([
    { wraps: 61, refused: false },
    { wraps: 62, refused: true },
  ])('data $wraps arrays deep under a key: refused past 64 levels, at the key', async ({ wraps, refused }) => {
    const file = folder({
      'definition.ts': `let deep: any = {};\nfor (let i = 0; i < ${wraps}; i++) deep = [deep];\nexport default {\n  spec: { deep },\n};\n`,
    });
    const { data, diagnostics } = await load([file]);
    if (!refused) return expect([data.length, diagnostics]).toEqual([1, []]);
    expect(data).toEqual([]);
    expect(diagnostics).toEqual([
      expect.objectContaining({
        code: 'typescript-evaluation',
        file,
        line: 4,
        column: 11,
        message: "the definition's data nests deeper than 64 levels, at spec.deep[0]…",
        path: ['spec', 'deep', ...Array<number>(wraps).fill(0)],
      }),
    ]);
  });

  test('one time budget for all definitions: twenty endless loops end in about one, the rest not evaluated', async () => {
    const files = Array.from({ length: 20 }, (_, i) => `hang-${String(i).padStart(2, '0')}.ts`);
    const first = folder(Object.fromEntries(files.map((f) => [f, 'for (;;) {}\nexport default {};\n'])), files[0]);
    const paths = files.map((f) => join(first, '..', f));
    // short limits: every loop spins a core until it is stopped, and whatever the load, at most
    // three start within a budget of two limits
    const { data, diagnostics } = await withLimits({ timeoutMs: 300, budgetMs: 600 }, () => load(paths));
    expect(data).toEqual([]);
    // every file has its one diagnostic, at the file
    expect(diagnostics.map((d) => d.file)).toEqual(paths);
    expect(diagnostics.every((d) => d.code === 'typescript-evaluation' && d.severity === 'error')).toBe(true);
    const unevaluated = diagnostics.filter((d) => /not evaluated/.test(d.message));
    // two or three ran (a limit each, the budget two limits); the others were never started
    expect(unevaluated.length).toBeGreaterThanOrEqual(17);
    expect(unevaluated[0]!.hint).toMatch(/budget/);
  }, 60_000);
});

// What a definition may reach from what its realm holds: every global, the objects of its module
// system (require, module, exports, the package's helpers), errors it provokes, and from each the
// constructor chain (whose Function compiles code in the realm that made it) and prototypes.
const ROOTS = [
  'globalThis',
  '[]',
  '({})',
  '(() => 0)',
  '(async () => 0)',
  '(function* () {})',
  'Error',
  'new Error("x")',
  'caught(() => (null as any).x)',
  'caught(() => JSON.parse("{"))',
  'Promise.resolve()',
  'Symbol.iterator',
  'defineClusterSet',
  'require',
  'module',
  'exports',
  'new Proxy({}, {})',
  'new Uint8Array(1)',
  'Object.getOwnPropertyDescriptor(globalThis, "globalThis")',
];
const STEPS = ['.constructor', '.constructor.constructor', '.__proto__', '.prototype', '.caller', '.arguments'];
const NAMES = ['process', 'require', 'Buffer', 'fetch', 'WebAssembly', 'setTimeout', 'setInterval', 'setImmediate', 'queueMicrotask', 'global'];
const HOST_FILE = /node:|file:|internal\/|\.[cm]js|quickjs|emscripten|wasm/i;

const PROBE_DEFINITION = (probes: readonly string[]) => `import { defineClusterSet } from 'antrea-clusterset';
declare const require: any, module: any, exports: any;
const found: string[] = [];
const NAMES = ${JSON.stringify(NAMES)};
const HOST_FILE = ${HOST_FILE.toString()};
function caught(f: () => unknown): unknown {
  try { return f(); } catch (e) { return e; }
}
function look(v: any, where: string): void {
  if (v === null || v === undefined) return;
  for (const n of NAMES) {
    try { if (v[n] !== undefined && !(where === 'globalThis' && n === 'require')) found.push(where + '.' + n); } catch { /* not readable */ }
  }
  if (typeof v === 'function') {
    try {
      // (an async or generator function's constructor makes functions that return no array)
      const types = v('return [' + NAMES.map((n) => 'typeof ' + n).join(', ') + ']')();
      if (Array.isArray(types)) NAMES.forEach((n, i) => { if (types[i] !== 'undefined') found.push(where + '(...) sees ' + n); });
    } catch { /* not a Function constructor */ }
  }
  for (const text of [typeof v === 'string' ? v : '', v instanceof Error ? String(v.stack) : '']) if (HOST_FILE.test(text)) found.push(where + ' names a host file: ' + text);
}
function probe(reach: () => unknown, where: string): void {
  let v: any;
  try { v = reach(); } catch (e) { v = e; }
  look(v, where);
  // (Promise.prototype has a then that throws on it)
  try {
    if (v && typeof v.then === 'function') v.then((r: unknown) => look(r, where + ' resolved'), (e: unknown) => look(e, where + ' rejected'));
  } catch { /* not a promise */ }
}
for (const n of NAMES) if (n !== 'require' && typeof (globalThis as any)[n] !== 'undefined') found.push('global ' + n);
look(new Error('x').stack, 'a stack');
probe(() => import(['node', 'process'].join(':')), 'import()');
${probes.map((p) => `probe(() => ${p}, ${JSON.stringify(p)});`).join('\n')}
export default defineClusterSet({ found } as any);
`;

describe('no definition can observe a Node global or a host object', () => {
  test('for any chain from anything in its realm', async () => {
    const probe = fc
      .record({ root: fc.constantFrom(...ROOTS), steps: fc.array(fc.constantFrom(...STEPS), { maxLength: 4 }) })
      .map(({ root, steps }) => `(${root} as any)${steps.join('')}`);
    // definitions of up to twelve chains each, loaded by one command as a pull request's are (one
    // sandbox process, an engine of its own for each): six in npm test, twelve a run and more runs
    // in the soak tier (test/helpers/soak.ts)
    const count = SOAK ? 12 : 6;
    const definitions = fc.array(fc.array(probe, { minLength: 1, maxLength: 12 }), { minLength: count, maxLength: count });
    await fc.assert(
      fc.asyncProperty(definitions, async (sets) => {
        const names = sets.map((_, i) => `definition-${String(i).padStart(2, '0')}.ts`);
        const first = folder(Object.fromEntries(sets.map((probes, i) => [names[i]!, PROBE_DEFINITION(probes)])), names[0]);
        const { data, diagnostics } = await load(names.map((name) => join(first, '..', name)));
        expect(diagnostics).toEqual([]);
        expect(data).toEqual(sets.map(() => ({ found: [] })));
      }),
      { numRuns: SOAK ? 3 : 1 },
    );
  }, 120_000);
});
