import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, extname, join, resolve } from 'node:path';
import { DEFINITION_EXTENSIONS } from '../load/load-clustersets';

/** The definition files of one git revision, copied out of the object store (never the work tree). */
export interface Revision {
  readonly ref: string;
  /** temporary directory holding the files at their repository-relative paths */
  readonly dir: string;
  /** repository-relative paths, sorted */
  readonly files: readonly string[];
}

/** A git problem the user can fix (not a repository, an unknown ref): reported, exit 2. */
export class GitError extends Error {}

const git = (cwd: string, args: readonly string[]): string => {
  try {
    return execFileSync('git', args, { cwd, encoding: 'utf8', maxBuffer: 1 << 30, stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (err) {
    const stderr = (err as { stderr?: string }).stderr?.trim();
    throw new GitError(`git ${args.join(' ')}: ${stderr || (err as Error).message}`);
  }
};

/** The repository-relative prefix of the working directory ('' at the top). */
export const repositoryPrefix = (cwd: string): string => git(cwd, ['rev-parse', '--show-prefix']).trim();

/**
 * The default base: the merge base of HEAD with the default branch (origin/HEAD, else
 * origin/main, main, origin/master, master), as a pull request is reviewed.
 */
export function defaultBase(cwd: string): string {
  for (const candidate of ['origin/HEAD', 'origin/main', 'main', 'origin/master', 'master']) {
    try {
      git(cwd, ['rev-parse', '--verify', '--quiet', `${candidate}^{commit}`]);
    } catch {
      continue;
    }
    return git(cwd, ['merge-base', 'HEAD', candidate]).trim();
  }
  throw new GitError('no default branch found (origin/HEAD, main or master); name the base with --base');
}

/**
 * Copies the definitions under `paths` (relative to cwd) at `ref` into a temporary directory,
 * reading blobs with `git cat-file` so the work tree and index are never touched.
 */
export function readRevision(cwd: string, ref: string, paths: readonly string[]): Revision {
  const commit = git(cwd, ['rev-parse', '--verify', '--quiet', `${ref}^{commit}`]).trim();
  const prefix = repositoryPrefix(cwd);
  const listed = git(cwd, ['ls-tree', '-r', '-z', '--name-only', '--full-tree', commit, '--', ...paths.map((p) => join(prefix, p))])
    .split('\0')
    .filter((f) => f && DEFINITION_EXTENSIONS.includes(extname(f)) && !/\.d\.[mc]?ts$/.test(f))
    // directories are read one level deep, as the CLI does in the work tree
    .filter((f) => paths.some((p) => f === join(prefix, p) || dirname(f) === join(prefix, p)))
    .sort();
  const dir = mkdtempSync(join(tmpdir(), 'clusterset-plan-'));
  const files = listed.map((f) => f.slice(prefix.length));
  for (const [i, f] of listed.entries()) {
    const target = join(dir, files[i]!);
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, execFileSync('git', ['cat-file', 'blob', `${commit}:${f}`], { cwd, maxBuffer: 1 << 30 }));
  }
  // a TypeScript definition imports 'antrea-clusterset': resolve it from the repository's packages
  const modules = nearestNodeModules(cwd);
  if (modules) symlinkSync(modules, join(dir, 'node_modules'), 'dir');
  return { ref, dir, files };
}

function nearestNodeModules(from: string): string | undefined {
  for (let d = resolve(from); ; d = dirname(d)) {
    if (existsSync(join(d, 'node_modules'))) return join(d, 'node_modules');
    if (dirname(d) === d) return undefined;
  }
}
