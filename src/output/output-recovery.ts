import * as nodeFs from 'node:fs';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { basename, dirname, join, resolve } from 'node:path';
import { printable } from '../diagnostics/printable';
import { MANIFEST } from './manifest';
import { SimulatedCrash, type FileSystemOps } from './file-system-ops';
import { displayPath, OutputError } from './output-error';
import { pruneEmpty, readRegular, writeAtomically } from './output-tree';

// The commit protocol's far side (output-transaction.ts): finishing a recorded commit, dropping an
// unrecorded one, and the spare tree's record.

/** What the spare tree is: the output whose manifest.json has this hash, except at these paths. */
export interface SpareRecord {
  readonly base: string;
  readonly differs: readonly string[];
}

/** An older version's journal: deletions, then staged files moved in one by one. */
interface LegacyJournal {
  readonly deletes: readonly string[];
  readonly moves: readonly string[];
}

/**
 * From the commit record on, idempotent: output → old, next → output, old → spare, the spare's
 * record, then the commit record goes. A failure (not a kill) before the output is the next tree
 * puts the old one back.
 */
export function finishCommit(out: string, state: string, record: SpareRecord, fs: FileSystemOps): void {
  const next = join(state, 'next');
  const old = join(state, 'old');
  const spare = join(state, 'spare');
  if (nodeFs.existsSync(next)) {
    try {
      if (nodeFs.existsSync(out)) {
        fs.rmSync(old, { recursive: true, force: true });
        fs.renameSync(out, old);
        fs.at?.('moved-old');
      }
      fs.renameSync(next, out);
    } catch (err) {
      // refused (a read-only or busy output), not killed: the old tree stays, nothing is committed
      if (!(err instanceof SimulatedCrash)) {
        if (!nodeFs.existsSync(out) && nodeFs.existsSync(old)) nodeFs.renameSync(old, out);
        nodeFs.rmSync(join(state, 'commit.json'), { force: true });
        if (['EBUSY', 'EXDEV'].includes((err as NodeJS.ErrnoException).code ?? ''))
          throw new OutputError(
            `cannot replace ${displayPath(out)}: it is a mount point, and the output is replaced whole by renames beside it`,
            'make --out a folder inside the mounted file system, not the mount point itself',
          );
      }
      throw err;
    }
    fs.at?.('moved-new');
  }
  if (nodeFs.existsSync(old)) {
    fs.rmSync(spare, { recursive: true, force: true });
    fs.renameSync(old, spare);
    fs.at?.('kept-spare');
  }
  if (nodeFs.existsSync(spare)) {
    writeAtomically(join(state, 'spare.json'), JSON.stringify(record), fs);
    fs.at?.('recorded');
  }
  fs.rmSync(join(state, 'commit.json'), { recursive: false, force: true });
}

/**
 * The state folder (`.<out>.clusterset/`) is a file we did not write until shown otherwise: a pull
 * request can commit one, with records that name any path (#48 item 2). Before anything is
 * touched, with check or not: the folder is a folder (not a link), git does not track it (synth
 * writes a `.gitignore` of `*` into it, so only a commit made on purpose adds it), and every
 * record it holds is one a synth writes, each of its paths relative, inside the output, and through
 * no link, in the output and in the tree it names. Anything else is refused, naming the file.
 */
export function checkState(out: string, state: string): void {
  let stats: nodeFs.Stats;
  try {
    stats = nodeFs.lstatSync(state);
  } catch {
    return; // no state folder: nothing recorded
  }
  const cleanUp = `remove ${displayPath(state)} (a synth recreates it; it holds nothing that is not in the output or the definitions) and run again`;
  if (!stats.isDirectory())
    throw new OutputError(
      `${displayPath(state)} is ${stats.isSymbolicLink() ? 'a symbolic link' : 'not a folder'}: the output's state folder is the compiler's own`,
      cleanUp,
      state,
    );
  if (trackedByGit(state))
    throw new OutputError(
      `${displayPath(state)} is tracked by git: the output's state folder is the compiler's own, never committed (a pull request could commit records that name any path)`,
      `run \`git rm -r --cached ${displayPath(state)}\`, commit, and run again (git ignores the folder from then on)`,
      displayPath(state),
    );
  const staging = join(state, 'staging');
  readRecord(state, 'commit.json', { differs: [out] }, cleanUp);
  readRecord(state, 'spare.json', { differs: [out, join(state, 'spare')] }, cleanUp);
  readRecord(state, 'journal.json', { deletes: [out], moves: [out, staging] }, cleanUp);
}

/**
 * Whether git tracks anything in the folder. One `git ls-files` in its parent; without git, or
 * outside a work tree, nothing can be tracked and the records' own checks stand alone.
 */
function trackedByGit(dir: string): boolean {
  if (!mayBeInRepository(resolve(dirname(dir)))) return false;
  try {
    const listed = execFileSync('git', ['ls-files', '-z', '--', basename(dir)], {
      cwd: dirname(dir),
      stdio: ['ignore', 'pipe', 'ignore'],
      env: { ...process.env, GIT_OPTIONAL_LOCKS: '0' },
      maxBuffer: 1 << 20,
    });
    return listed.length > 0;
  } catch {
    return false;
  }
}

/**
 * Whether git could find a repository from `dir`: GIT_DIR or GIT_WORK_TREE set, or an entry `.git`
 * (a folder, or a linked work tree's file) or `HEAD` (a bare repository's) in it or in a folder
 * above it (git's discovery walks up looking for those: setup.c, setup_git_directory_gently_1).
 * Where none is, git answers "not a git repository" and its process is not started (a synth
 * outside any repository). Anything that cannot be looked at counts as a repository.
 */
function mayBeInRepository(dir: string): boolean {
  if (process.env.GIT_DIR !== undefined || process.env.GIT_WORK_TREE !== undefined) return true;
  for (let d = dir; ; d = dirname(d)) {
    for (const marker of ['.git', 'HEAD']) {
      try {
        nodeFs.lstatSync(join(d, marker));
        return true;
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code;
        if (code !== 'ENOENT' && code !== 'ENOTDIR') return true;
      }
    }
    if (dirname(d) === d) return false;
  }
}

/** A record of the state folder, parsed, its path lists checked against the folders they are joined to. */
function readRecord(state: string, name: string, lists: Readonly<Record<string, readonly string[]>>, hint: string): unknown {
  const file = join(state, name);
  const text = readRegular(file);
  if (text === undefined) return undefined;
  const refuse = (why: string) => new OutputError(`${displayPath(file)} ${why}; nothing was changed`, hint, displayPath(file));
  if (typeof text === 'object') throw refuse(`is ${text.irregular}, not a record a synth wrote`);
  let record: unknown;
  try {
    record = JSON.parse(text);
  } catch {
    if (name === 'spare.json') return undefined;
    throw refuse('is not JSON');
  }
  if (typeof record !== 'object' || record === null) {
    if (name === 'spare.json') return undefined;
    throw refuse('is not a record a synth wrote');
  }
  for (const [key, bases] of Object.entries(lists)) {
    const entries = (record as Record<string, unknown>)[key];
    if (!Array.isArray(entries)) {
      // a spare record that is not one is never used (readSpareRecord); the others are applied as they are
      if (name === 'spare.json') continue;
      throw refuse(`has no list "${key}"`);
    }
    for (const entry of entries) {
      const why = entryProblem(entry, bases);
      if (why) throw refuse(`names ${typeof entry === 'string' ? `"${printable(entry)}"` : 'a value that is not a path'} in "${key}", ${why}`);
    }
  }
  return record;
}

/** Why a recorded path may not be joined to these folders: a path of a synth is relative, inside, and through folders only. */
export function entryProblem(entry: unknown, bases: readonly string[]): string | undefined {
  if (typeof entry !== 'string' || entry === '') return 'not a path';
  if (entry.includes('\0')) return 'a path holding NUL';
  if (entry.startsWith('/')) return 'an absolute path';
  const parts = entry.split('/');
  if (parts.some((p) => p === '..' || p === '.' || p === '')) return 'a path that leaves the output';
  for (const base of bases) {
    let path = base;
    for (const part of parts) {
      path = join(path, part);
      let stats: nodeFs.Stats;
      try {
        stats = nodeFs.lstatSync(path);
      } catch {
        break; // absent from here on
      }
      if (stats.isSymbolicLink()) return `a path through the symbolic link ${displayPath(path)}`;
    }
  }
  return undefined;
}

/** Finish a committed run, drop an uncommitted next tree, remove older versions' leftovers (the records checked by `checkState`). */
export function recover(out: string, state: string, fs: FileSystemOps): void {
  const commitFile = join(state, 'commit.json');
  if (nodeFs.existsSync(commitFile)) finishCommit(out, state, JSON.parse(nodeFs.readFileSync(commitFile, 'utf8')) as SpareRecord, fs);
  const legacyJournal = join(state, 'journal.json');
  if (nodeFs.existsSync(legacyJournal)) applyLegacy(out, state, JSON.parse(nodeFs.readFileSync(legacyJournal, 'utf8')) as LegacyJournal, fs);
  // not committed: the output is the old tree (put back if a run stopped between the two renames)
  const old = join(state, 'old');
  if (nodeFs.existsSync(old) && !nodeFs.existsSync(out)) fs.renameSync(old, out);
  for (const leftover of ['next', 'old', 'staging', 'journal.json.tmp', 'commit.json.tmp', 'spare.json.tmp'])
    fs.rmSync(join(state, leftover), { recursive: true, force: true });
  // what versions that swapped whole trees left behind when killed
  const parent = dirname(out);
  const name = basename(out);
  if (nodeFs.existsSync(parent)) {
    for (const entry of nodeFs.readdirSync(parent)) {
      if (entry.startsWith('.clusterset-tmp-')) fs.rmSync(join(parent, entry), { recursive: true, force: true });
      else if (entry.startsWith(`${name}.old-`)) {
        // killed between the two renames of a swap: the old tree is all that is left
        if (!nodeFs.existsSync(out)) fs.renameSync(join(parent, entry), out);
        else fs.rmSync(join(parent, entry), { recursive: true, force: true });
      }
    }
  }
  if (nodeFs.existsSync(out)) {
    for (const entry of nodeFs.readdirSync(out)) if (/\.old-\d+-\d+$/.test(entry)) fs.rmSync(join(out, entry), { recursive: true, force: true });
  }
}

/** An older version's committed journal, finished as that version would (idempotent). */
function applyLegacy(out: string, state: string, journal: LegacyJournal, fs: FileSystemOps): void {
  const staging = join(state, 'staging');
  for (const rel of journal.deletes) {
    fs.rmSync(join(out, rel), { recursive: true, force: true });
    pruneEmpty(out, rel, fs);
  }
  for (const rel of journal.moves) {
    const from = join(staging, rel);
    if (!nodeFs.existsSync(from)) continue; // moved before the kill
    fs.mkdirSync(dirname(join(out, rel)), { recursive: true });
    fs.renameSync(from, join(out, rel));
  }
  fs.rmSync(join(state, 'journal.json'), { recursive: false, force: true });
}

export function readSpareRecord(state: string): SpareRecord | undefined {
  try {
    const r = JSON.parse(nodeFs.readFileSync(join(state, 'spare.json'), 'utf8')) as Partial<SpareRecord>;
    return typeof r.base === 'string' && Array.isArray(r.differs)
      ? { base: r.base, differs: r.differs.filter((p) => entryProblem(p, []) === undefined) }
      : undefined;
  } catch {
    return undefined;
  }
}

/** The identity of a tree this compiler wrote: its manifest's bytes. */
export function manifestHash(dir: string): string | undefined {
  try {
    // a manifest.json that is a link or a FIFO is no tree of ours (and is never read)
    const text = readRegular(join(dir, MANIFEST));
    return typeof text === 'string' ? createHash('sha256').update(text).digest('hex') : undefined;
  } catch {
    return undefined;
  }
}
