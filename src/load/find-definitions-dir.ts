import { existsSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const DEFINITIONS_DIR = 'clustersets';

/**
 * The `clustersets/` a command reads by default, as a path relative to `cwd`: the working
 * directory's own, else the nearest one above it, up to the repository's top (the first folder
 * with `.git`). Run from `docs/` or `dist/x/`, `validate` and `plan` read the repository's
 * definitions; without any, the plain name (and its "cannot read" diagnostic) stays.
 */
export function findDefinitionsDir(cwd: string): string {
  for (let dir = resolve(cwd); ; dir = dirname(dir)) {
    if (existsSync(join(dir, DEFINITIONS_DIR))) return relative(cwd, join(dir, DEFINITIONS_DIR)).split('\\').join('/');
    if (existsSync(join(dir, '.git')) || dirname(dir) === dir) return DEFINITIONS_DIR;
  }
}
