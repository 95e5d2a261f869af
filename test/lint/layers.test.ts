import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Linter } from 'eslint';
import tseslint from 'typescript-eslint';
import { describe, expect, test } from 'vitest';
// @ts-expect-error: a plain ESM script without declarations
import { BASE, EXCEPTIONS, LAYERS, layersPlugin, REPLAY_LAYERS } from '../../scripts/eslint-layers.mjs';
// @ts-expect-error: a plain ESM script without declarations
import config from '../../eslint.config.mjs';

const ROOT = join(import.meta.dirname, '../..');

function lint(file: string, code: string, rule = 'layers/imports'): string[] {
  const linter = new Linter({ cwd: ROOT });
  const messages = linter.verify(
    code,
    [{ files: ['**/*.ts'], languageOptions: { parser: tseslint.parser }, plugins: { layers: layersPlugin as never }, rules: { [rule]: 'error' } }],
    { filename: join(ROOT, file) },
  );
  return messages.map((m) => m.message);
}

describe('layers/imports', () => {
  test.each([
    // upward imports the issue measured, each now refused
    ['src/output/output-transaction.ts', "import { runRules } from '../validate/run-rules';", 'src/output may not import src/validate'],
    // the pipeline sits above the stages and below its entry points, which it never imports
    ['src/layout/layout.ts', "import { runPipeline } from '../pipeline/pipeline';", 'src/layout may not import src/pipeline'],
    // the layout stage runs before the output and never reaches into it
    ['src/layout/layout.ts', "import { MANIFEST } from '../output/manifest';", 'src/layout may not import src/output'],
    ['src/pipeline/pipeline.ts', "import { planSink } from '../plan/plan-sink';", 'src/pipeline may not import src/plan'],
    ['src/pipeline/memory-sink.ts', "import { compile } from '../compile';", 'src/pipeline may not import src/compile'],
    [
      'src/construct/antrea-clusterset.ts',
      "import { scanDefinitionTextSync } from '../secrets/scan-secrets-sync';",
      'src/construct may not import src/secrets',
    ],
    ['src/construct/antrea-clusterset.ts', "import { runRules } from '../validate/run-rules';", 'src/construct may not import src/validate'],
    ['src/validate/rules/cidr-overlap.ts', "import { layoutBundle } from '../../layout/layout';", 'src/validate may not import src/layout'],
    ['src/validate/rule.ts', "import type { BundleContext } from '../synth/parts/context';", 'src/validate may not import src/synth'],
    ['src/synth/notes.ts', "import { layoutBundle } from '../layout/layout';", 'src/synth may not import src/layout'],
    ['src/antrea/release.ts', "import type { ClusterSet } from '../model/clusterset';", 'src/antrea may not import src/model'],
    ['src/model/effective.ts', "export { x } from '../validate/cidr';", 'src/model may not import src/validate'],
    ['src/kube/kube-object.ts', "import { loadYaml } from '../load/load-yaml';", 'src/kube may not import src/load'],
    ['src/layout/layout.ts', "const m = await import('../plan/run-plan');", 'src/layout may not import src/plan'],
    ['src/plan/run-plan.ts', "import { run } from '../cli';", 'src/plan may not import src/cli'],
    ['src/synth/parts/verify-job.ts', "import { statusCommand } from '../../live/status-command';", 'src/synth may not import src/live'],
    // the engines sit below synth: they are given inputs, never a bundle's builders
    ['src/delivery/argocd/applications.ts', "import { clusterSetSources } from '../../synth/synth-clusterset';", 'src/delivery may not import src/synth'],
    ['src/new-folder/thing.ts', "import { x } from '../model/clusterset';", 'src/new-folder has no row'],
  ])('%s: %s is refused', (file, code, message) => {
    expect(lint(file, code)).toEqual([expect.stringContaining(message)]);
  });

  test.each([
    ['src/layout/layout.ts', "import type { KubeObject } from '../kube/kube-object';"],
    ['src/pipeline/pipeline.ts', "import { scanOutputFiles } from '../secrets/scan-secrets';"],
    ['src/plan/plan-sink.ts', "import { memorySink } from '../pipeline/memory-sink';"],
    ['src/synth/parts/verify-job.ts', "import { verificationsFor } from '../../verify/verifications';"],
    ['src/delivery/index.ts', "import { layerOf } from './layers';"],
    // the validation rules that build engine objects import delivery/, a layer below them (no exception)
    ['src/validate/rules/delivery-name-collision.ts', "import { deliverySources } from '../../delivery';"],
    ['src/cli/main.ts', "import { runPlan } from '../plan/run-plan';"],
    ['src/validate/rules/argocd-applicationset-size.ts', "import { toYaml } from '../../kube/serialize';"],
    ['test/layout/layout.test.ts', "import { runPlan } from '../../src/plan/run-plan';"],
  ])('%s: %s is allowed', (file, code) => {
    expect(lint(file, code)).toEqual([]);
  });

  test('the repository config turns the rule on for every source file', () => {
    const entries = config as { files?: string[]; rules?: Record<string, unknown> }[];
    expect(entries.find((e) => e.rules?.['layers/imports'] === 'error')?.files).toEqual(['src/**/*.ts']);
  });
});

describe('layers/replay-imports', () => {
  const lintReplay = (file: string, code: string) => lint(file, code, 'layers/replay-imports');

  test.each([
    // Kubernetes itself knows nothing of Antrea, the engines or the Jobs' runner
    [
      'test/engine-replay/kubernetes/api-server.ts',
      "import type { Fleet } from '../antrea/controllers';",
      'test/engine-replay/kubernetes may not import test/engine-replay/antrea',
    ],
    [
      'test/engine-replay/kubernetes/kubectl.ts',
      "import { JobRunner } from '../jobs/job-runner';",
      'test/engine-replay/kubernetes may not import test/engine-replay/jobs',
    ],
    // the engines decide from the API server's state, never from Antrea's model
    [
      'test/engine-replay/engines/argocd.ts',
      "import { AntreaMulticluster } from '../antrea/antrea-multicluster';",
      'test/engine-replay/engines may not import test/engine-replay/antrea',
    ],
    [
      'test/engine-replay/jobs/job-runner.ts',
      "import type { Fleet } from '../antrea/controllers';",
      'test/engine-replay/jobs may not import test/engine-replay/antrea',
    ],
    [
      'test/engine-replay/antrea/controllers.ts',
      "import { FluxRun } from '../engines/flux';",
      'test/engine-replay/antrea may not import test/engine-replay/engines',
    ],
    // a folder never reaches up into the replay's top files (its entry and tests)
    ['test/engine-replay/engines/flux.ts', "import type { ReplayResult } from '../replay';", "may not import the replay's top (replay.ts)"],
    ['test/engine-replay/antrea/verification.ts', "export { replay } from '..';", "may not import the replay's top (index.ts)"],
    ['test/engine-replay/engines/kstatus.ts', "const m = await import('../scenario');", "may not import the replay's top (scenario.ts)"],
    ['test/engine-replay/new-folder/thing.ts', "import type { Obj } from '../kubernetes/kube';", 'test/engine-replay/new-folder has no row'],
  ])('%s: %s is refused', (file, code, message) => {
    expect(lintReplay(file, code)).toEqual([expect.stringContaining(message)]);
  });

  test.each([
    ['test/engine-replay/engines/flux.ts', "import type { ApiServer } from '../kubernetes/api-server';"],
    ['test/engine-replay/antrea/controllers.ts', "import { JobRunner } from '../jobs/job-runner';"],
    ['test/engine-replay/jobs/job-runner.ts', "import { kubectl } from '../kubernetes/kubectl';"],
    ['test/engine-replay/kubernetes/kubectl.ts', "import { jsonpath } from './jsonpath';"],
    // outside the replay's table: the product and the test helpers
    ['test/engine-replay/kubernetes/kube.ts', "import { requireTool } from '../../helpers/tools';"],
    ['test/engine-replay/engines/kstatus.ts', "import type { CelHealthCheck } from '../../../src/delivery/flux/health-cel';"],
    // the top files (the replay's entry and its tests) import every folder
    ['test/engine-replay/replay.ts', "import { FluxRun } from './engines/flux';"],
    ['test/engine-replay/jobs.test.ts', "import { JobRunner } from './jobs/job-runner';"],
    ['test/engine-replay/kubernetes/server-side-apply.test.ts', "import { apply } from './server-side-apply';"],
  ])('%s: %s is allowed', (file, code) => {
    expect(lintReplay(file, code)).toEqual([]);
  });

  test('the repository config turns the rule on for every file of the replay', () => {
    const entries = config as { files?: string[]; rules?: Record<string, unknown> }[];
    expect(entries.find((e) => e.rules?.['layers/replay-imports'] === 'error')?.files).toEqual(['test/engine-replay/**/*.ts']);
  });
});

/**
 * The folder table of docs/architecture.md as the linter's table: each row's first cell names its
 * folders or files (`validate/`, `index.ts`), its last what they may import besides the shared bottom
 * (backticked names, `nothing else`, `everything`); the shared bottom's row is BASE.
 */
function docTable(markdown: string): { base: string[]; layers: Record<string, string[]> } {
  const names = (cell: string) => [...cell.matchAll(/`([^`]+)`/g)].map((m) => m[1]!.replace(/\/$/, '').replace(/\.ts$/, ''));
  const header = markdown.indexOf('| folder | owns | may import');
  const rows = markdown.slice(header).split('\n').slice(2);
  const table = rows.slice(
    0,
    rows.findIndex((r) => !r.startsWith('|')),
  );
  let base: string[] = [];
  const layers: Record<string, string[]> = {};
  for (const row of table) {
    const cells = row.split('|').slice(1, -1);
    const [folders, mayImport] = [cells[0]!, cells.at(-1)!.trim()];
    if (folders.includes('shared bottom')) base = names(folders);
    else for (const f of names(folders)) layers[f] = mayImport === 'everything' ? ['*'] : names(mayImport);
  }
  return { base, layers };
}

// the key order does not matter to toEqual; the order of a row's imports does not matter either
const sortedTable = (t: Readonly<Record<string, readonly string[]>>): Record<string, string[]> =>
  Object.fromEntries(Object.entries(t).map(([k, v]): [string, string[]] => [k, [...v].sort()]));
const LINTER = { base: [...(BASE as string[])].sort(), layers: sortedTable(LAYERS as Record<string, string[]>) };
const ARCHITECTURE = readFileSync(join(ROOT, 'docs/architecture.md'), 'utf8');
const NUMBERS = ['no', 'one', 'two', 'three', 'four', 'five', 'six'];

describe("docs/architecture.md holds the linter's table", () => {
  test('the folder table equals LAYERS and BASE of scripts/eslint-layers.mjs', () => {
    const doc = docTable(ARCHITECTURE);
    expect([...doc.base].sort()).toEqual(LINTER.base);
    expect(sortedTable(doc.layers)).toEqual(LINTER.layers);
  });

  test.each([
    ['a row that gains an import', '| `model` |', '| `model`, `layout` |'],
    ['a row that loses one', '| `load`, `model`, `antrea`, `delivery`, `secrets` |', '| `load`, `model`, `antrea`, `delivery` |'],
    ['a folder missing from the table', /^\| `init\/` .*\n/m, ''],
    ['a shared bottom folder missing', ', `text/`', ''],
  ])('%s makes them differ', (_, from, to) => {
    const edited = ARCHITECTURE.replace(from, to);
    expect(edited).not.toBe(ARCHITECTURE);
    const doc = docTable(edited);
    expect({ base: [...doc.base].sort(), layers: sortedTable(doc.layers) }).not.toEqual(LINTER);
  });

  test("the linter holds no exception: every import is one its folder's row allows (#41)", () => {
    expect(EXCEPTIONS).toEqual({});
  });

  test("the exceptions paragraph counts and names the linter's exceptions", () => {
    const paragraph = /^(\w+) exceptions? (?:is|are) written in `scripts\/eslint-layers.mjs`[\s\S]*?\n\n/m.exec(ARCHITECTURE);
    expect(paragraph, 'a paragraph opening "<number> exceptions are written in `scripts/eslint-layers.mjs`"').not.toBeNull();
    const files = Object.keys(EXCEPTIONS as Record<string, string[]>);
    expect(NUMBERS.indexOf(paragraph![1]!.toLowerCase())).toBe(files.length);
    for (const file of files) expect(paragraph![0]).toContain(`\`${file.replace(/^.*\//, '').replace(/\.ts$/, '')}\``);
  });
});

const REPLAY_README = readFileSync(join(ROOT, 'test/engine-replay/README.md'), 'utf8');
const REPLAY_LINTER = sortedTable(REPLAY_LAYERS as Record<string, string[]>);

describe("test/engine-replay/README.md holds the linter's replay table", () => {
  test('the folder table equals REPLAY_LAYERS of scripts/eslint-layers.mjs', () => {
    const doc = docTable(REPLAY_README);
    expect(doc.base).toEqual([]);
    expect(sortedTable(doc.layers)).toEqual(REPLAY_LINTER);
  });

  test.each([
    ['a row that gains an import', '| `kubernetes`, `jobs` |', '| `kubernetes`, `jobs`, `engines` |'],
    ['a row that loses one', '| `kubernetes`, `jobs` |', '| `kubernetes` |'],
    ['a folder missing from the table', /^\| `jobs\/` .*\n/m, ''],
  ])('%s makes them differ', (_, from, to) => {
    const edited = REPLAY_README.replace(from, to);
    expect(edited).not.toBe(REPLAY_README);
    expect(sortedTable(docTable(edited).layers)).not.toEqual(REPLAY_LINTER);
  });

  test('every folder of the replay has a row, and every row a folder', () => {
    const folders = readdirSync(join(ROOT, 'test/engine-replay'), { withFileTypes: true })
      .filter((e) => e.isDirectory() && e.name !== 'fixtures')
      .map((e) => e.name);
    expect(folders.sort()).toEqual(Object.keys(REPLAY_LINTER).sort());
  });
});
