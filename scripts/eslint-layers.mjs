// The stage folders of src/ and what each may import (docs/architecture.md holds the same table).
// `npm run lint` enforces it through the `layers/imports` rule below: an import of a folder or
// top-level file of src/ that is not listed for the importing one is an error. Tests and
// benchmarks may import anything.
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
  check: ['antrea', 'delivery', 'synth'],
  output: ['synth', 'check'],
  pipeline: ['load', 'model', 'antrea', 'validate', 'delivery', 'synth', 'check', 'output', 'secrets'],
  compile: ['load', 'synth', 'check', 'pipeline'],
  policy: ['load', 'model', 'antrea', 'validate', 'pipeline'],
  plan: ['load', 'model', 'antrea', 'diagram', 'validate', 'delivery', 'synth', 'pipeline', 'policy'],
  live: ['load', 'model', 'antrea', 'delivery', 'verify', 'validate', 'synth', 'secrets', 'pipeline', 'plan'],
  init: ['antrea', 'plan', 'live'],
  construct: ['load', 'model', 'synth', 'check', 'pipeline'],
  cli: ['*'],
  index: ['*'],
};

/**
 * Documented exceptions, by file: an import the table above refuses that one file may make. None:
 * the validation rules that build engine objects import delivery/, a layer below them.
 */
export const EXCEPTIONS = {};

/** The top folder or file of src/ a path is in (without extension), or undefined outside src/. */
function unitOf(srcDir, path) {
  const rel = relative(srcDir, path);
  if (rel.startsWith('..') || rel === '') return undefined;
  return rel.split(sep)[0].replace(/\.(c|m)?(t|j)s$/, '');
}

function check(context, node) {
  if (!node.source || typeof node.source.value !== 'string' || !node.source.value.startsWith('.')) return;
  const file = context.filename;
  const srcDir = resolve(context.cwd, 'src');
  const from = unitOf(srcDir, file);
  if (from === undefined) return;
  const target = resolve(dirname(file), node.source.value).replace(/\.(c|m)?(t|j)s$/, '');
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

export const layersPlugin = {
  rules: {
    imports: {
      meta: { type: 'problem', schema: [], docs: { description: 'stage folders import only the folders below them' } },
      create: (context) => ({
        ImportDeclaration: (node) => check(context, node),
        ExportNamedDeclaration: (node) => check(context, node),
        ExportAllDeclaration: (node) => check(context, node),
        ImportExpression: (node) => check(context, { source: node.source }),
      }),
    },
  },
};
