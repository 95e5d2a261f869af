import { existsSync } from 'node:fs';

/**
 * The package's own folder, as a URL ending in `/`: the first folder above this module that holds
 * package.json. The CLI runs from `src/cli/` through tsx in a checkout and from `lib/` when built
 * (one bundle), so docs/ and package.json are one or two levels up.
 */
export function packageRoot(from: string | URL = import.meta.url): URL {
  for (let dir = new URL('./', from), i = 0; i < 4; dir = new URL('../', dir), i++) {
    if (existsSync(new URL('package.json', dir))) return dir;
  }
  throw new Error(`no package.json above ${String(from)}`);
}
