// The stage folders of src/ and what each may import (docs/architecture.md holds the same table).
// `npm run lint` enforces it through the `layers/imports` rule below: an import of a folder or
// top-level file of src/ that is not listed for the importing one is an error. Tests and
// benchmarks may import anything.
import { dirname, relative, resolve, sep } from 'node:path';

/** Shared at the bottom: any folder may import these, and they import only each other. */
export const BASE = ['diagnostics', 'kube', 'fast-yaml', 'yaml-readers', 'shell-quote', 'plural', 'compiler-version', 'token-material'];

/** folder (or top-level file) of src/ → the folders above BASE it may import */
export const LAYERS = {
  load: [],
  antrea: [],
  model: ['load'],
  secrets: ['load'],
  health: [],
  diagram: ['model'],
  verify: ['model'],
  validate: ['load', 'model', 'antrea'],
  synth: ['model', 'antrea', 'health', 'diagram', 'verify'],
  check: ['antrea', 'synth'],
  output: ['synth', 'check'],
  pipeline: ['load', 'model', 'antrea', 'validate', 'synth', 'check', 'output', 'secrets'],
  compile: ['load', 'synth', 'check', 'pipeline'],
  plan: ['load', 'model', 'antrea', 'diagram', 'validate', 'synth', 'pipeline'],
  live: ['load', 'model', 'antrea', 'verify', 'validate', 'synth', 'secrets', 'pipeline', 'plan'],
  init: ['antrea', 'plan'],
  construct: ['load', 'model', 'synth', 'check', 'pipeline'],
  cli: ['*'],
  index: ['*'],
};

/**
 * Documented exceptions, by file. `argocd-applicationset-size` measures the Argo CD ApplicationSet
 * as synth builds it and the output writes it, so that validate never accepts a fleet the check stage then refuses.
 * `delivery-name-collision` builds every cluster's engine objects as synth does, so that a unit added
 * to the builders is compared without a change to the rule; `delivery-name-across-definitions` does the
 * same across definitions, and reads which engine folder (instance) an object is applied from.
 */
export const EXCEPTIONS = {
  'validate/rules/argocd-applicationset-size.ts': ['synth/delivery/argocd', 'synth/delivery/cluster-inputs'],
  'validate/rules/delivery-name-collision.ts': ['synth/delivery'],
  'validate/rules/delivery-name-across-definitions.ts': ['synth/delivery', 'synth/delivery/argocd', 'synth/delivery/flux'],
};

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
