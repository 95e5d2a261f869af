#!/usr/bin/env node
// The installed package runs the compiled lib/cli.js. In a development checkout (src/ beside
// lib/), lib/ is used only while it is newer than every source file; otherwise the TypeScript
// sources run through tsx, so a git pull or an edit never runs a stale build.
import { existsSync, readdirSync, statSync } from 'node:fs';
import * as nodeModule from 'node:module';
import { homedir } from 'node:os';
import { join } from 'node:path';

// Node keeps the compiled code of the modules this process loads (the build, its dependencies,
// the typescript package) in a compile cache: each later run skips parsing and compiling them, a
// quarter of a small validate's CPU (TypeScript's tsc does the same). The cache is code this
// process runs, so it lives in the user's own cache folder, never in the shared temporary folder
// another account could write first. NODE_COMPILE_CACHE moves it, NODE_DISABLE_COMPILE_CACHE=1
// turns it off; a folder that cannot be written leaves it off (Node reports that, never throws).
if (!process.env.NODE_COMPILE_CACHE) {
  const cache = process.env.XDG_CACHE_HOME || join(homedir(), '.cache');
  nodeModule.enableCompileCache?.(join(cache, 'antrea-clusterset', 'node-compile-cache'));
}

// SIGUSR1 opens Node's inspector (127.0.0.1:9229, no authentication), which runs code in this
// process with CI's environment: a listener replaces that default, so whoever can signal the CLI
// gets nothing (#48 item 1). The sandbox process has --disable-sigusr1 where Node knows it.
if (process.platform !== 'win32') process.on('SIGUSR1', () => {});

const root = new URL('../', import.meta.url);
const compiled = new URL('lib/cli.js', root);
const sources = new URL('src/', root);

function buildIsFresh() {
  if (!existsSync(compiled)) return false;
  if (!existsSync(sources)) return true;
  const built = statSync(compiled).mtimeMs;
  return readdirSync(sources, { recursive: true }).every((f) => statSync(new URL(String(f), sources)).mtimeMs <= built);
}

let main;
if (buildIsFresh()) {
  ({ main } = await import(compiled.href));
} else {
  (await import('tsx/esm/api')).register();
  (await import('tsx/cjs/api')).register();
  globalThis[Symbol.for('antrea-clusterset.tsx-registered')] = true;
  ({ main } = await import(new URL('src/cli/main.ts', root).href));
}
process.exitCode = await main(process.argv.slice(2));
