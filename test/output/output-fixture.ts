import { mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, relative, sep } from 'node:path';
import { afterAll, expect } from 'vitest';
import { stringify } from 'yaml';
import type { Diagnostic } from '../../src/diagnostics/diagnostic';
import type { ClusterSetInput } from '../../src/model/clusterset';
import { outputSink, type OutputSinkOptions } from '../../src/pipeline/output-sink';
import { runPipeline, type PipelineInput } from '../../src/pipeline/pipeline';
import { notGatewayHa } from '../helpers/gateway-ha';
import { removeTree } from '../helpers/remove-tree';

// What the tests of the output directory share (output-incremental.test.ts, output-directory.test.ts):
// a scratch folder per file, definitions written into it, the pipeline into an output, the trees
// they compare.

/** A scratch folder for the calling test file, removed after it (registered by the file, since test files share their worker's modules). */
export function scratch(prefix: string) {
  const tmp = mkdtempSync(join(tmpdir(), prefix));
  afterAll(() => removeTree(tmp));
  let n = 0;
  const fresh = (name: string) => join(tmp, `${name}-${n++}`);
  return {
    tmp,
    fresh,
    /** A definition file of its own. */
    definitionFile: (definition: ClusterSetInput, name = 'fleet'): string => {
      const dir = fresh('defs');
      mkdirSync(dir);
      const file = join(dir, `${name}.yaml`);
      writeFileSync(file, stringify(definition));
      return file;
    },
  };
}

/** The pipeline into the output: definition files (or loaded sources), its diagnostics pushed into `diagnostics`. */
export async function outputToDirectory(input: readonly string[] | PipelineInput, options: OutputSinkOptions, diagnostics: Diagnostic[]) {
  const run = await runPipeline([Array.isArray(input) ? { files: input as readonly string[] } : (input as PipelineInput)], outputSink(options));
  diagnostics.push(...run.diagnostics);
  return run.result;
}

/** A synth (full unless told) that must give no diagnostic but gateway-ha. */
export async function synth(files: readonly string[], options: Omit<OutputSinkOptions, 'full'> & { full?: boolean }) {
  const diagnostics: Diagnostic[] = [];
  const result = await outputToDirectory(files, { full: true, ...options }, diagnostics);
  expect(notGatewayHa(diagnostics)).toEqual([]);
  return result!;
}

/** Every file under a directory with its bytes, and the inode, which tells whether it was rewritten. */
export function tree(dir: string): Map<string, { content: string; ino: number }> {
  const out = new Map<string, { content: string; ino: number }>();
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const path = join(entry.parentPath, entry.name);
    out.set(relative(dir, path).split(sep).join('/'), { content: readFileSync(path, 'utf8'), ino: statSync(path).ino });
  }
  return out;
}
export const contents = (t: Map<string, { content: string }>) => new Map([...t].map(([p, f]) => [p, f.content]));

/** The state folder a synth keeps beside its output (output/output-transaction.ts). */
export const stateOf = (out: string) => join(dirname(out), `.${basename(out)}.clusterset`);
