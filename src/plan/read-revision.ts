import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, extname, join, resolve } from 'node:path';
import { inside } from '../load/definition-folder';
import { DEFINITION_EXTENSIONS, MAX_DEFINITION_BYTES, TYPESCRIPT_EXTENSIONS } from '../load/load-clustersets';

/** The definition files of one git revision, copied out of the object store (never the work tree). */
export interface Revision {
  readonly ref: string;
  /** temporary directory holding the files at their repository-relative paths */
  readonly dir: string;
  /** repository-relative paths, sorted */
  readonly files: readonly string[];
  /**
   * the YAML definitions' texts by their path in `dir`, not written there: a revision without
   * symbolic links holds only regular files, as git stores them, so the loader takes their text as
   * it would read it (a thousand files not created; load-clustersets.ts `known`)
   */
  readonly texts: ReadonlyMap<string, string>;
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
const repositoryPrefix = (cwd: string): string => git(cwd, ['rev-parse', '--show-prefix']).trim();

/**
 * The default base: the merge base of HEAD with the default branch (origin/HEAD, else
 * origin/main, main, origin/master, master), as a pull request is reviewed.
 */
export function defaultBase(cwd: string): string {
  const branch = defaultBranch(cwd);
  if (branch === undefined) throw new GitError('no default branch found (origin/HEAD, main or master); name the base with --base');
  if (!resolves(cwd, 'HEAD')) throw new GitError('the repository has no commit yet: commit the definitions once, or name the base with --base');
  return git(cwd, ['merge-base', 'HEAD', branch]).trim();
}

/** The default branch `plan` compares with: origin/HEAD, else origin/main, main, origin/master, master. */
export function defaultBranch(cwd: string): string | undefined {
  return ['origin/HEAD', 'origin/main', 'main', 'origin/master', 'master'].find((candidate) => resolves(cwd, candidate));
}

const resolves = (cwd: string, ref: string): boolean => {
  try {
    git(cwd, ['rev-parse', '--verify', '--quiet', `${ref}^{commit}`]);
    return true;
  } catch {
    return false;
  }
};

/**
 * `plan` needs a repository: said in the user's words, not git's. Run before anything else, so
 * that outside a repository or with an unknown --base the first line says what to do.
 */
export function checkRepository(cwd: string, base: string | undefined, paths: readonly string[] = []): void {
  try {
    git(cwd, ['rev-parse', '--is-inside-work-tree']);
  } catch {
    throw new GitError(
      'not a git repository: plan compares the definitions with a git revision (by default the merge base with the default branch); run it inside the repository that holds clustersets/, or create one with `git init` and a first commit',
    );
  }
  // git's own words for this are "fatal: … is outside repository"
  const top = realpathSync(git(cwd, ['rev-parse', '--show-toplevel']).trim());
  for (const p of paths) {
    if (!inside(realpathOrSelf(resolve(cwd, p)), top))
      throw new GitError(
        `${p} is outside the repository at ${top}: plan compares definitions with a git revision of this repository; name definitions inside it, or check a file elsewhere with \`clusterset validate\``,
      );
  }
  if (base !== undefined && !resolves(cwd, base))
    throw new GitError(`unknown git revision "${base}" (--base): name a branch, tag or commit of this repository, such as --base origin/main or --base HEAD~1`);
}

/** The real path of an existing file or folder (symlinks resolved, as git resolves them), else the path as given. */
function realpathOrSelf(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

/**
 * Copies the definitions under `paths` (relative to cwd) at `ref` into a temporary directory,
 * reading blobs with `git cat-file` so the work tree and index are never touched.
 */
export function readRevision(cwd: string, ref: string, paths: readonly string[]): Revision {
  const commit = git(cwd, ['rev-parse', '--verify', '--quiet', `${ref}^{commit}`]).trim();
  const prefix = repositoryPrefix(cwd);
  const named = paths.map((p) => join(prefix, p));
  const all = lsTree(cwd, commit, named, true);
  const listed = all
    .filter(({ path: f }) => DEFINITION_EXTENSIONS.includes(extname(f)) && !/\.d\.[mc]?ts$/.test(f))
    // directories are read one level deep, as the CLI does in the work tree
    .filter(({ path: f }) => paths.some((p) => f === join(prefix, p) || dirname(f) === join(prefix, p)))
    .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const dir = mkdtempSync(join(tmpdir(), 'clusterset-plan-'));
  const files = listed.map(({ path: f }) => f.slice(prefix.length));

  // every file of the listed definitions' folders too (a link's target, a TypeScript definition's
  // imports), so the loader judges the revision as it judges the work tree (definition-folder.ts)
  const folders = [...new Set(listed.map(({ path: f }) => dirname(f)))];
  // (the repository's top folder one level deep: its subfolders are the rest of the repository, dist/ among them)
  // a folder named in `paths` was listed whole above (the usual clustersets/): not listed again.
  // Each path once, as one ls-tree of overlapping folders lists it
  const again = folders.filter((d) => d !== '.' && !named.includes(d));
  const support = [
    ...new Map(
      [
        ...all.filter(({ path: f }) => folders.some((d) => d !== '.' && named.includes(d) && f.startsWith(`${d}/`))),
        ...lsTree(cwd, commit, again, true),
        ...(folders.includes('.') ? lsTree(cwd, commit, ['.'], false) : []),
      ].map((e) => [e.path, e]),
    ).values(),
  ];
  // every blob in one `git cat-file --batch` (a process per file cost seconds in a large repository)
  const blobs = catBlobs(
    cwd,
    support.map((e) => e.object),
  );
  const made = new Set<string>();
  const texts = new Map<string, string>();
  const definitions = new Set(listed.map((e) => e.path));
  const anyLink = support.some((e) => e.link);
  for (const { link, path: f, object } of support) {
    const blob = () => blobs.get(object)!;
    const target = join(dir, f.slice(prefix.length));
    if (!anyLink && definitions.has(f) && !TYPESCRIPT_EXTENSIONS.includes(extname(f)) && blob().length <= MAX_DEFINITION_BYTES) {
      texts.set(target, blob().toString('utf8'));
      continue;
    }
    // each folder made once (a thousand definitions share one)
    if (!made.has(dirname(target))) mkdirSync(dirname(target), { recursive: true });
    made.add(dirname(target));
    if (!link) {
      writeFileSync(target, blob());
      continue;
    }
    // a symbolic link stays one: the loader follows it inside its folder and refuses it, unread, when
    // it leaves. One whose target leaves the revision's files points at '/' here, outside every folder,
    // so it is refused as a link out (its target in this checkout is not the revision's business)
    const to = blob().toString('utf8');
    symlinkSync(inside(resolve(dirname(target), to), dir) ? to : '/', target);
  }
  // a TypeScript definition imports 'antrea-clusterset': resolve it from the repository's packages
  const modules = nearestNodeModules(cwd);
  if (modules) symlinkSync(modules, join(dir, 'node_modules'), 'dir');
  return { ref, dir, files, texts };
}

/** The contents of these blobs, by object id: `git cat-file --batch` answers `<id> blob <size>\n<bytes>\n` for each. */
function catBlobs(cwd: string, objects: readonly string[]): Map<string, Buffer> {
  const out = new Map<string, Buffer>();
  const wanted = [...new Set(objects)];
  if (wanted.length === 0) return out;
  let all: Buffer;
  try {
    all = execFileSync('git', ['cat-file', '--batch'], { cwd, input: `${wanted.join('\n')}\n`, maxBuffer: 1 << 30, stdio: ['pipe', 'pipe', 'pipe'] });
  } catch (err) {
    throw new GitError(`git cat-file --batch: ${(err as { stderr?: Buffer }).stderr?.toString().trim() || (err as Error).message}`);
  }
  let at = 0;
  for (const id of wanted) {
    const eol = all.indexOf(10, at);
    const [object, type, size] = all.subarray(at, eol).toString('latin1').split(' ');
    if (object !== id || type !== 'blob' || size === undefined) throw new GitError(`git cat-file --batch: unexpected answer for ${id}`);
    const start = eol + 1;
    out.set(id, all.subarray(start, start + Number(size)));
    at = start + Number(size) + 1;
  }
  return out;
}

/**
 * The files under `paths` at `commit` (`<mode> <type> <object>\t<path>` per entry), each with whether
 * it is a symbolic link (mode 120000) and its blob id; in their subfolders too when `recursive`.
 */
const lsTree = (cwd: string, commit: string, paths: readonly string[], recursive: boolean): { link: boolean; path: string; object: string }[] =>
  paths.length === 0
    ? []
    : git(cwd, ['ls-tree', ...(recursive ? ['-r'] : []), '-z', '--full-tree', commit, '--', ...paths])
        .split('\0')
        .filter((line) => / blob /.test(line.slice(0, line.indexOf('\t'))))
        .map((line) => ({
          link: line.startsWith('120000 '),
          path: line.slice(line.indexOf('\t') + 1),
          object: line.slice(0, line.indexOf('\t')).split(' ')[2]!,
        }));

function nearestNodeModules(from: string): string | undefined {
  for (let d = resolve(from); ; d = dirname(d)) {
    if (existsSync(join(d, 'node_modules'))) return join(d, 'node_modules');
    if (dirname(d) === d) return undefined;
  }
}
