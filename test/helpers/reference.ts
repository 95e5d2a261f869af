import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The conformance gate. Material from ../shared (upstream manifests, the design contract) sits
 * beside this repository only in the project's own workspace. Only `.ci/run` makes it required,
 * through this project's own variable: the generic `CI` is set in every GitHub job, including a
 * fresh clone or a user's repository, where the folder never exists.
 */
export const CONFORMANCE_VARIABLE = 'ANTREA_CLUSTERSET_CONFORMANCE';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));

/** A path in ../shared, resolved from the repository root. */
export const sharedPath = (path: string): string => resolve(repoRoot, '../shared', path);

export const conformanceRequired = (env: NodeJS.ProcessEnv = process.env): boolean => env[CONFORMANCE_VARIABLE] === 'required';

/**
 * True when `path` exists. When it does not: throws if conformance is required, otherwise prints
 * a visible skip line (the suite then skips its tests) and returns false.
 */
export function haveReference(suite: string, path: string, env: NodeJS.ProcessEnv = process.env): boolean {
  if (existsSync(path)) return true;
  if (conformanceRequired(env)) throw new Error(`${suite} needs ${path} (${CONFORMANCE_VARIABLE}=required)`);
  console.warn(`[${suite}] skipped: ${path} not found (set ${CONFORMANCE_VARIABLE}=required to fail instead)`);
  return false;
}
