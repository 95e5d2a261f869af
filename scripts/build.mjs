#!/usr/bin/env node
// npm run build: lib/ for the published package. JavaScript by esbuild (ESM with shared chunks for
// the CLI and the library, plus one CommonJS bundle for require()), declarations by tsc.
// The sources import without file extensions (moduleResolution Bundler), which Node's ESM loader
// cannot resolve file by file; bundling resolves them once here.
// `--javascript-only --out <dir>`: the JavaScript alone into another folder (the test suite runs
// its CLI processes from such a build, as the package runs them).
import { execFileSync } from 'node:child_process';
import { copyFileSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));
const { values: args } = parseArgs({ options: { out: { type: 'string' }, 'javascript-only': { type: 'boolean' } } });
const lib = args.out ? resolve(args.out) : join(root, 'lib');
// the folder is emptied first: never the repository or a folder holding it
if (!relative(lib, root).startsWith('..')) {
  console.error(`build: --out ${args.out} holds the repository; give a folder of its own`);
  process.exit(2);
}
rmSync(lib, { recursive: true, force: true });

const common = { absWorkingDir: root, bundle: true, platform: 'node', target: 'node22', packages: 'external', legalComments: 'none', logLevel: 'warning' };
await build({
  ...common,
  entryPoints: { index: 'src/index.ts', cli: 'src/cli/main.ts' },
  outdir: lib,
  format: 'esm',
  splitting: true,
  chunkNames: 'chunks/[name]-[hash]',
});
// CommonJS has no import.meta: the one use (createRequire, package.json) gets this file's URL
await build({
  ...common,
  entryPoints: { index: 'src/index.ts' },
  outExtension: { '.js': '.cjs' },
  outdir: lib,
  format: 'cjs',
  define: { 'import.meta.url': '__antreaClustersetUrl' },
  banner: { js: "const __antreaClustersetUrl = require('node:url').pathToFileURL(__filename).href;" },
});

// the TypeScript sandbox's child script runs as plain CommonJS beside the bundles
copyFileSync(join(root, 'src/load/evaluate-definition.cjs'), join(lib, 'evaluate-definition.cjs'));

if (args['javascript-only']) process.exit(0);

// declarations only: the type check is `npm run lint`'s (npm test and CI run it); without it
// (--noCheck) tsc emits the same files in half the time, which every pack (the package test's too) pays
execFileSync(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', join(root, 'tsconfig.build.json'), '--noCheck'], { stdio: 'inherit' });
// declaration files keep the sources' extensionless imports; Node16/NodeNext consumers need `.js`
for (const entry of readdirSync(join(lib, 'types'), { recursive: true })) {
  const file = join(lib, 'types', String(entry));
  if (!file.endsWith('.d.ts')) continue;
  const text = readFileSync(file, 'utf8').replace(/(from |import\()(['"])(\.{1,2}\/[^'"]+)\2/g, (all, head, quote, spec) => {
    if (/\.(js|json)$/.test(spec)) return all;
    const base = join(dirname(file), spec);
    const target = existsDts(`${base}.d.ts`) ? `${spec}.js` : existsDts(join(base, 'index.d.ts')) ? `${spec}/index.js` : spec;
    return `${head}${quote}${target}${quote}`;
  });
  writeFileSync(file, text);
}

function existsDts(path) {
  try {
    readFileSync(path);
    return true;
  } catch {
    return false;
  }
}
