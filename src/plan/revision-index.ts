import { execFileSync } from 'node:child_process';
import { dirname, join, relative, sep } from 'node:path';
import { DefinitionIndex, MANIFEST } from '../pipeline/definition-index';
import { findDefinitionsDir } from '../load/find-definitions-dir';
import { defaultBase } from './read-revision';

/**
 * The output's `manifest.json` as a git revision holds it, never as the work tree does: in a pull
 * request the work tree's `dist/` (and its index) is the pull request's own, so an index read
 * there would let a forged `manifest.json` vouch for a changed definition and forged bundles. The
 * base revision was checked when it was merged: a definition or an output file whose bytes equal
 * that revision's is what that check saw (docs/architecture.md, "The pull-request check").
 * Undefined (a full run) when the revision has no manifest or no index, or git cannot read it.
 */
type Recorded = NonNullable<ConstructorParameters<typeof DefinitionIndex>[0]>;

export function manifestAt(cwd: string, ref: string, out: string): Recorded | undefined {
  const path = relative(cwd, join(out, MANIFEST));
  if (path.startsWith('..')) return undefined;
  try {
    // `REF:./path` is relative to the working directory; `--end-of-options` keeps a ref from being a flag
    const text = execFileSync('git', ['show', '--end-of-options', `${ref}:./${path.split(sep).join('/')}`], {
      cwd,
      encoding: 'utf8',
      maxBuffer: 1 << 30,
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    const manifest = JSON.parse(text) as unknown;
    return manifest && typeof manifest === 'object' ? manifest : undefined;
  } catch {
    return undefined;
  }
}

/** plan's index: the base revision's (the merge base with the default branch unless given). */
export function revisionIndex(cwd: string, base: string | undefined): { index: DefinitionIndex; root: string } | undefined {
  const root = dirname(findDefinitionsDir(cwd));
  let ref: string;
  try {
    ref = base ?? defaultBase(cwd);
  } catch {
    return undefined;
  }
  const manifest = manifestAt(cwd, ref, join(root, 'dist'));
  const index = manifest && new DefinitionIndex(manifest);
  return index && index.size > 0 ? { index, root } : undefined;
}
