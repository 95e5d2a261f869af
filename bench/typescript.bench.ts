// The cost of evaluating a TypeScript definition in the sandbox (#48 item 1): QuickJS compiled
// to WebAssembly, in a child process of its own. Split into its parts, in one run so that the
// ratios hold on a loaded machine: a bare child process (the second wall alone), the engine's
// start-up (compiling and instantiating its WebAssembly, a runtime and a context) and a
// definition's evaluation in it, both in this process, and the whole of a definition, as
// loadClusterSets does it, alone and as one of ten in a command (which share one sandbox
// process), against the same definition in YAML.
import { createRequire } from 'node:module';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { Diagnostic } from '../src/diagnostics/diagnostic';
import { startSandbox } from '../src/load/evaluate-typescript';
import { loadClusterSets } from '../src/load/load-clustersets';

const require = createRequire(import.meta.url);

async function median(runs: number, fn: () => Promise<unknown>): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    await fn();
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(runs / 2)]!;
}

/** A child process as the sandbox starts it, running a script that only waits for its input to end. */
async function bareProcess(script: string): Promise<void> {
  const child = startSandbox(script);
  child.stdin.end('{}');
  child.stdout.resume();
  child.stderr.resume();
  await new Promise((closed) => child.on('close', closed));
}

const DEFINITION = `import { defineClusterSet } from 'antrea-clusterset';
import { members } from './members';
export default defineClusterSet({
  apiVersion: 'antrea-clusterset/v1alpha1',
  kind: 'ClusterSetDefinition',
  metadata: { name: 'bench' },
  spec: {
    antrea: { version: 'v2.7.0' },
    leader: { clusterID: 'north', server: 'https://172.18.0.1:6443' },
    clusters: [{ clusterID: 'north', member: false }, ...members],
  },
});
`;
const MEMBERS = `export const members = ['east', 'west', 'south'].map((clusterID, i) => ({
  clusterID,
  serviceCIDR: \`10.\${96 + i * 16}.0.0/16\`,
  gateways: [{ node: \`\${clusterID}-1\` }],
}));
`;
const YAML = `apiVersion: antrea-clusterset/v1alpha1
kind: ClusterSetDefinition
metadata: { name: bench }
spec:
  antrea: { version: v2.7.0 }
  leader: { clusterID: north, server: 'https://172.18.0.1:6443' }
  clusters:
    - { clusterID: north, member: false }
    - { clusterID: east, serviceCIDR: 10.96.0.0/16, gateways: [{ node: east-1 }] }
    - { clusterID: west, serviceCIDR: 10.112.0.0/16, gateways: [{ node: west-1 }] }
    - { clusterID: south, serviceCIDR: 10.128.0.0/16, gateways: [{ node: south-1 }] }
`;

export default async function bench(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'typescript-bench-'));
  try {
    const waits = join(dir, 'waits.cjs');
    writeFileSync(waits, "process.stdin.resume(); process.stdin.on('end', () => process.exit(0));\n");
    writeFileSync(join(dir, 'bench.ts'), DEFINITION);
    writeFileSync(join(dir, 'members.ts'), MEMBERS);
    writeFileSync(join(dir, 'bench.yaml'), YAML);
    // a command with ten definitions: one sandbox process, an engine instance each
    const ten = Array.from({ length: 10 }, (_, i) => join(dir, `bench-${i}.ts`));
    for (const file of ten) writeFileSync(file, DEFINITION);
    const load = async (file: string | string[]) => {
      const files = typeof file === 'string' ? [file] : file;
      const diagnostics: Diagnostic[] = [];
      const sources = await loadClusterSets(files, diagnostics);
      if (diagnostics.length > 0 || sources.length !== files.length) throw new Error(`the bench's definitions did not load: ${JSON.stringify(diagnostics)}`);
    };
    // the typescript package loads once per process: not a cost per definition
    await load(join(dir, 'bench.ts'));

    const { newQuickJSWASMModuleFromVariant } = require('quickjs-emscripten-core') as typeof import('quickjs-emscripten-core');
    const variant = (require('@jitl/quickjs-wasmfile-release-sync') as { default: import('quickjs-emscripten-core').QuickJSSyncVariant }).default;
    const engineStart = async () => {
      const engine = await newQuickJSWASMModuleFromVariant(variant);
      const runtime = engine.newRuntime();
      const context = runtime.newContext();
      return { runtime, context };
    };
    const { runtime, context } = await engineStart();
    // in a function: a global const could not be declared again by the next run
    const code = `(() => { const members = ${MEMBERS.replace('export const members = ', '')}; return JSON.stringify({ clusters: members }); })()`;

    const runs = 9;
    const rows = {
      'child process alone (permission model, empty environment)': await median(runs, () => bareProcess(waits)),
      'engine start-up in-process (WebAssembly, runtime, context)': await median(runs, async () => {
        const started = await engineStart();
        started.context.dispose();
        started.runtime.dispose();
      }),
      'a definition evaluated in a started engine': await median(runs, () => {
        const result = context.evalCode(code);
        context.unwrapResult(result).dispose();
        return Promise.resolve();
      }),
      'a TypeScript definition with an import, loaded (all of it)': await median(runs, () => load(join(dir, 'bench.ts'))),
      'ten such definitions in one command, per definition': (await median(runs, () => load(ten))) / ten.length,
      'the same definition in YAML, loaded': await median(runs, () => load(join(dir, 'bench.yaml'))),
    };
    context.dispose();
    runtime.dispose();
    for (const [name, ms] of Object.entries(rows)) console.log(`${name.padEnd(62)} ${ms.toFixed(1).padStart(8)} ms`);
    const whole = rows['a TypeScript definition with an import, loaded (all of it)'];
    console.log(
      `TypeScript / YAML: ${(whole / rows['the same definition in YAML, loaded']).toFixed(0)}x; child process share of a TypeScript definition: ${((100 * rows['child process alone (permission model, empty environment)']) / whole).toFixed(0)}%`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
