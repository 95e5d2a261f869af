import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, test } from 'vitest';
import { parse } from 'yaml';
import { scaffoldRepository } from '../../src/init/scaffold';
import { readPackageJson } from '../helpers/json';

// The Node lines the package states in `engines` are the lines CI runs the suite on, and the
// workflows (ours and the one `init` writes) run a line from them (#43).

const ROOT = resolve(import.meta.dirname, '../..');
const read = (path: string) => readFileSync(resolve(ROOT, path), 'utf8');

const pkg = readPackageJson(resolve(ROOT, 'package.json')) as { engines: { node: string }; devDependencies: Record<string, string> };
const engines = pkg.engines.node;
// one caret range per line: `>=` would promise lines no CI run has seen
const LINES = engines.split('||').map((range) => Number(/^\s*\^(\d+)\.\d+\.\d+\s*$/.exec(range)?.[1]));

type Workflow = { jobs: Record<string, { strategy?: { matrix?: { node?: number[] } }; steps: { with?: { 'node-version'?: unknown } }[] }> };
const nodeVersions = (workflow: Workflow) =>
  Object.values(workflow.jobs).flatMap((job) => job.steps.flatMap((step) => (step.with?.['node-version'] === undefined ? [] : [step.with['node-version']])));

describe('Node lines', () => {
  test('engines states whole lines, each a caret range', () => {
    expect(LINES.length).toBeGreaterThan(0);
    for (const line of LINES) expect(line).toEqual(expect.any(Number));
  });

  test('.ci/run and the test workflow run the suite on exactly those lines', () => {
    const ciRun = /^NODE_LINES=\(([^)]*)\)$/m.exec(read('.ci/run'))?.[1]?.split(/\s+/).map(Number);
    expect(ciRun).toEqual(LINES);
    const test = parse(read('.github/workflows/test.yml')) as Workflow;
    expect(test.jobs.test!.strategy!.matrix!.node).toEqual(LINES);
    expect(nodeVersions(test)).toEqual(['${{ matrix.node }}']);
  });

  test('the workflows that run the compiler, ours and the scaffold, run a stated line', () => {
    const scaffold = scaffoldRepository({ name: 'gitops', version: '1.0.0' }).find((f) => f.path === '.github/workflows/clusterset.yml')!;
    for (const workflow of [read('.github/workflows/clusterset.yml'), scaffold.content]) {
      const versions = nodeVersions(parse(workflow) as Workflow);
      expect(versions.length).toBeGreaterThan(0);
      for (const version of versions) expect(LINES).toContain(version);
    }
  });

  test('the build targets the oldest line, and the types are its API', () => {
    expect(/target: 'node(\d+)'/.exec(read('scripts/build.mjs'))?.[1]).toBe(String(Math.min(...LINES)));
    // newer types would let the sources call what the oldest line lacks
    expect(/^\^(\d+)\./.exec(pkg.devDependencies['@types/node']!)?.[1]).toBe(String(Math.min(...LINES)));
  });
});
