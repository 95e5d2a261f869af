import { existsSync, mkdirSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { runCli } from '../helpers/cli-process';
import { soakRows } from '../helpers/soak';
import { removeTree } from '../helpers/remove-tree';

// bin/clusterset.mjs turns on Node's compile cache: code the process runs later, so it must live
// where only the user writes (their cache folder), never in the temporary folder every account
// shares; the variables Node documents still move it or turn it off.
const root = mkdtempSync(join(tmpdir(), 'compile-cache-'));
afterAll(() => removeTree(root));

type Folder = 'home' | 'xdg' | 'tmp' | 'named';

// npm test: the default and the variable that names the user's cache folder; Node's own variables in soak
const ROWS = soakRows<{ row: string; env: Partial<Record<string, Folder | '1'>>; cache: Folder | undefined }>(
  [
    { row: 'by default: the cache folder in the home', env: {}, cache: 'home' },
    { row: 'XDG_CACHE_HOME names the cache folder', env: { XDG_CACHE_HOME: 'xdg' }, cache: 'xdg' },
    { row: 'NODE_COMPILE_CACHE moves it', env: { NODE_COMPILE_CACHE: 'named' }, cache: 'named' },
    { row: 'NODE_DISABLE_COMPILE_CACHE=1 turns it off', env: { NODE_DISABLE_COMPILE_CACHE: '1' }, cache: undefined },
  ],
  (r) => !Object.keys(r.env).some((k) => k.startsWith('NODE_')),
);

test.each(ROWS)('$row; never the shared temporary folder', async ({ row, env, cache }) => {
  const dir = join(root, row.replace(/\W+/g, '-'));
  const folders: Record<Folder, string> = { home: join(dir, 'home'), xdg: join(dir, 'xdg'), tmp: join(dir, 'tmp'), named: join(dir, 'named') };
  for (const f of [folders.home, folders.tmp]) mkdirSync(f, { recursive: true });
  const values = Object.fromEntries(Object.entries(env).map(([k, v]) => [k, v === '1' ? v : folders[v!]]));
  const run = await runCli(['--version'], { cwd: dir, env: { HOME: folders.home, TMPDIR: folders.tmp, XDG_CACHE_HOME: undefined, ...values } });
  expect(run.stderr).toBe('');
  expect(run.code).toBe(0);
  // where Node wrote compiled code: a folder per Node version under the cache folder
  const written = (f: string) =>
    existsSync(f) && readdirSync(f, { recursive: true, encoding: 'utf8' }).some((p) => p.endsWith('.cache') || /[0-9a-f]{8}$/.test(p));
  const where = {
    home: written(join(folders.home, '.cache/antrea-clusterset/node-compile-cache')),
    xdg: written(join(folders.xdg, 'antrea-clusterset/node-compile-cache')),
    named: written(folders.named),
    tmp: written(folders.tmp),
  };
  expect(where).toEqual({ home: cache === 'home', xdg: cache === 'xdg', named: cache === 'named', tmp: false });
});
