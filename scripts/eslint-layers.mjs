// The stage folders of src/ and what each may import (docs/architecture.md holds the same table).
// `npm run lint` enforces it through the `layers/imports` rule below: an import of a folder or
// top-level file of src/ that is not listed for the importing one is an error. Tests and
// benchmarks may import anything. The engine replay (test/engine-replay/) has a table of its own,
// REPLAY_LAYERS, enforced by the sibling rule `layers/replay-imports` (its README holds the same).
import { dirname, relative, resolve, sep } from 'node:path';

/** Shared at the bottom: any folder may import these, and they import only each other. */
export const BASE = ['diagnostics', 'kube', 'yaml', 'text', 'compiler-version'];

/** folder (or top-level file) of src/ → the folders above BASE it may import */
export const LAYERS = {
  load: [],
  antrea: [],
  model: ['load'],
  secrets: ['load'],
  health: [],
  delivery: ['model', 'antrea', 'health'],
  diagram: ['model', 'delivery'],
  verify: ['model'],
  validate: ['load', 'model', 'antrea', 'delivery', 'secrets'],
  synth: ['model', 'antrea', 'health', 'delivery', 'diagram', 'verify'],
  layout: ['antrea', 'delivery', 'synth'],
  output: ['synth', 'layout'],
  pipeline: ['load', 'model', 'antrea', 'validate', 'delivery', 'synth', 'layout', 'output', 'secrets'],
  policy: ['load', 'model', 'antrea', 'validate', 'pipeline'],
  plan: ['load', 'model', 'antrea', 'diagram', 'validate', 'delivery', 'synth', 'pipeline', 'policy'],
  live: ['load', 'model', 'antrea', 'delivery', 'verify', 'validate', 'synth', 'secrets', 'pipeline', 'plan', 'policy'],
  init: ['antrea', 'plan', 'live'],
  construct: ['load', 'model', 'synth', 'layout', 'pipeline'],
  cli: ['*'],
  index: ['*'],
};

/**
 * Documented exceptions, by file: an import the table above refuses that one file may make. None:
 * the validation rules that build engine objects import delivery/, a layer below them.
 */
export const EXCEPTIONS = {};

/**
 * The folders of test/engine-replay/ and what each may import of the replay (its README holds the
 * same table). The files at its top (the replay's entry: `replay.ts`, `scenario.ts`, `index.ts`,
 * and the tests) may import every folder; a folder never imports them. Imports of src/ and of
 * test/helpers/ are outside this table.
 */
export const REPLAY_LAYERS = {
  kubernetes: [],
  jobs: ['kubernetes'],
  antrea: ['kubernetes', 'jobs'],
  engines: ['kubernetes'],
};

/** The top folder or file of src/ a path is in (without extension), or undefined outside src/. */
function unitOf(srcDir, path) {
  const rel = relative(srcDir, path);
  if (rel.startsWith('..') || rel === '') return undefined;
  return rel.split(sep)[0].replace(/\.(c|m)?(t|j)s$/, '');
}

/** The relative import a node makes, resolved without its extension, or undefined. */
function targetOf(context, node) {
  if (!node.source || typeof node.source.value !== 'string' || !node.source.value.startsWith('.')) return undefined;
  return resolve(dirname(context.filename), node.source.value).replace(/\.(c|m)?(t|j)s$/, '');
}

/** The folder of test/engine-replay/ a path is in, `.` for a file at its top, undefined outside. */
function replayUnitOf(replayDir, path) {
  const rel = relative(replayDir, path);
  if (rel.startsWith('..')) return undefined;
  const parts = rel.split(sep);
  return parts.length === 1 ? '.' : parts[0];
}

function checkReplay(context, node) {
  const target = targetOf(context, node);
  if (target === undefined) return;
  const replayDir = resolve(context.cwd, 'test/engine-replay');
  const from = replayUnitOf(replayDir, context.filename);
  const to = replayUnitOf(replayDir, target);
  if (from === undefined || from === '.' || to === undefined || to === from) return;
  const allowed = REPLAY_LAYERS[from];
  if (allowed === undefined) {
    context.report({
      node: node.source,
      message: `test/engine-replay/${from} has no row in REPLAY_LAYERS (scripts/eslint-layers.mjs): add it with what it may import`,
    });
    return;
  }
  if (allowed.includes(to)) return;
  const what = to === '.' ? `the replay's top (${relative(replayDir, target).split(sep).join('/') || 'index'}.ts)` : `test/engine-replay/${to}`;
  context.report({
    node: node.source,
    message: `test/engine-replay/${from} may not import ${what} (it may import ${allowed.length ? allowed.join(', ') : 'no other replay folder'}): see the table in test/engine-replay/README.md`,
  });
}

function check(context, node) {
  const target = targetOf(context, node);
  if (target === undefined) return;
  const file = context.filename;
  const srcDir = resolve(context.cwd, 'src');
  const from = unitOf(srcDir, file);
  if (from === undefined) return;
  const to = unitOf(srcDir, target);
  if (to === undefined || to === from || BASE.includes(to)) return;
  const allowed = BASE.includes(from) ? [] : LAYERS[from];
  if (allowed === undefined) {
    context.report({ node: node.source, message: `src/${from} has no row in scripts/eslint-layers.mjs: add it with what it may import` });
    return;
  }
  if (allowed.includes('*') || allowed.includes(to)) return;
  const fileKey = relative(srcDir, file).split(sep).join('/');
  const targetKey = relative(srcDir, target).split(sep).join('/');
  if (EXCEPTIONS[fileKey]?.includes(targetKey)) return;
  context.report({
    node: node.source,
    message: `src/${from} may not import src/${to} (it may import ${[...allowed, 'the shared bottom files'].join(', ')}): see the table in docs/architecture.md`,
  });
}

const importRule = (description, checkImport) => ({
  meta: { type: 'problem', schema: [], docs: { description } },
  create: (context) => ({
    ImportDeclaration: (node) => checkImport(context, node),
    ExportNamedDeclaration: (node) => checkImport(context, node),
    ExportAllDeclaration: (node) => checkImport(context, node),
    ImportExpression: (node) => checkImport(context, { source: node.source }),
  }),
});

export const layersPlugin = {
  rules: {
    imports: importRule('stage folders import only the folders below them', check),
    'replay-imports': importRule("the engine replay's folders import only the folders below them", checkReplay),
  },
};
