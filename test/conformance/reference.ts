import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { AntreaRelease } from '../../src/antrea/release';
import { haveReference, sharedPath } from '../helpers/reference';

/**
 * Where a release's upstream manifests are, and whether they are there. A missing folder skips
 * with a message, or fails where ANTREA_CLUSTERSET_CONFORMANCE=required (set by .ci/run).
 */
export function referenceDir(release: AntreaRelease, suite: string): { dir: string; have: boolean } {
  const dir = sharedPath(`reference/antrea/${release.version}`);
  return { dir, have: haveReference(`${suite} conformance ${release.version}`, dir) };
}

export const readReference = (dir: string, file: string): string => readFileSync(resolve(dir, file), 'utf8');
