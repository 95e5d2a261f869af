import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AntreaRelease } from '../../src/antrea/release';

// Upstream release manifests are reference data, read at test time from the shared checkout next to the repo.
const repoRoot = fileURLToPath(new URL('../..', import.meta.url));

/** Where a release's upstream manifests are, and whether they are there (CI requires them). */
export function referenceDir(release: AntreaRelease, suite: string): { dir: string; have: boolean } {
  const dir = resolve(repoRoot, '../shared/reference/antrea', release.version);
  const have = existsSync(dir);
  if (!have) {
    if (process.env.CI) throw new Error(`${suite} conformance needs the upstream manifests at ${dir}`);
    console.warn(`[${suite} conformance] ${release.version} skipped: ${dir} not found`);
  }
  return { dir, have };
}

export const readReference = (dir: string, file: string): string => readFileSync(resolve(dir, file), 'utf8');
