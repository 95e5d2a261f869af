import * as nodeFs from 'node:fs';
import { dirname, join, sep } from 'node:path';
import type { FileSystemOps } from './file-system-ops';

// Operations on the trees of an output transaction (output-transaction.ts): hard links, atomic
// writes and listings, through FileSystemOps so that the kill drills reach every mutation.

/**
 * What an entry of the output is when it is neither a regular file nor a folder: `dist/` comes from
 * the pull request (#48 item 2), and such an entry is named, never read or followed (a link to
 * /dev/zero reads without end, a FIFO blocks the open).
 */
export function irregularKind(stats: nodeFs.Stats | nodeFs.Dirent): string | undefined {
  if (stats.isFile() || stats.isDirectory()) return undefined;
  if (stats.isSymbolicLink()) return 'a symbolic link';
  if (stats.isFIFO()) return 'a FIFO';
  if (stats.isSocket()) return 'a socket';
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return 'a device';
  return 'not a regular file';
}

/**
 * A regular file's text, read without following a link and without blocking: `undefined` when it
 * is absent, what it is when it is not a regular file (not opened then).
 */
export function readRegular(path: string): string | { readonly irregular: string } | undefined {
  let stats: nodeFs.Stats;
  try {
    stats = nodeFs.lstatSync(path);
  } catch (err) {
    if (isMissing(err)) return undefined;
    throw err;
  }
  const kind = stats.isDirectory() ? 'a folder' : irregularKind(stats);
  if (kind) return { irregular: kind };
  // O_NOFOLLOW and O_NONBLOCK: an entry swapped for a link or a FIFO after the lstat is refused, not followed or waited on
  const fd = nodeFs.openSync(path, nodeFs.constants.O_RDONLY | nodeFs.constants.O_NOFOLLOW | nodeFs.constants.O_NONBLOCK);
  try {
    const swapped = irregularKind(nodeFs.fstatSync(fd));
    if (swapped) return { irregular: swapped };
    return nodeFs.readFileSync(fd, 'utf8');
  } finally {
    nodeFs.closeSync(fd);
  }
}

/** `to` (absent) becomes a tree of hard links to the files of `from`; copies where links are refused. */
export function linkTree(from: string, to: string, fs: FileSystemOps): void {
  const top = nodeFs.lstatSync(from);
  // a link is copied as a link, never followed (it is the pull request's, and is replaced or removed)
  if (top.isSymbolicLink()) {
    fs.mkdirSync(dirname(to), { recursive: true });
    nodeFs.symlinkSync(nodeFs.readlinkSync(from), to);
    return;
  }
  if (!top.isDirectory()) {
    fs.mkdirSync(dirname(to), { recursive: true });
    linkFile(from, to, fs);
    return;
  }
  fs.mkdirSync(to, { recursive: true });
  for (const e of nodeFs.readdirSync(from, { withFileTypes: true, recursive: true })) {
    const rel = e.parentPath === from ? e.name : `${e.parentPath.slice(from.length + 1)}${sep}${e.name}`;
    if (e.isDirectory()) fs.mkdirSync(join(to, rel), { recursive: true });
    else if (e.isSymbolicLink()) nodeFs.symlinkSync(nodeFs.readlinkSync(join(from, rel)), join(to, rel));
    else linkFile(join(from, rel), join(to, rel), fs);
  }
}

/**
 * `to` (absent) becomes hard links to the files `rels` of `from`: for a tree this run wrote whole,
 * whose files it knows (no listing of what it just wrote, and nothing but regular files in it).
 */
export function linkFiles(from: string, to: string, rels: Iterable<string>, fs: FileSystemOps): void {
  fs.mkdirSync(to, { recursive: true });
  const made = new Set<string>();
  for (const rel of rels) {
    makeDirs(`${to}/${rel.slice(0, Math.max(rel.lastIndexOf('/'), 0))}`, to, made, fs);
    linkFile(`${from}/${rel}`, `${to}/${rel}`, fs);
  }
}

/**
 * `dir` and the folders between it and `root` (which exists) that `made` does not list, top down,
 * in a tree whose folders `made` lists all: one mkdir each, where a recursive mkdir of a new folder
 * under a new one fails first (ENOENT).
 */
export function makeDirs(dir: string, root: string, made: Set<string>, fs: FileSystemOps): void {
  const missing: string[] = [];
  for (let d = dir; d.length > root.length && !made.has(d); d = d.slice(0, d.lastIndexOf('/'))) missing.push(d);
  for (let i = missing.length - 1; i >= 0; i--) {
    fs.mkdirSync(missing[i]!, { recursive: true });
    made.add(missing[i]!);
  }
}

function linkFile(from: string, to: string, fs: FileSystemOps): void {
  try {
    fs.linkSync(from, to);
  } catch (err) {
    // a file system without hard links (or at the limit of links of a file)
    if (!['EXDEV', 'EPERM', 'ENOTSUP', 'EMLINK', 'EOPNOTSUPP'].includes((err as NodeJS.ErrnoException).code ?? '')) throw err;
    // only a regular file is copied: copying a FIFO or a device would read it (the entry is dropped instead)
    if (nodeFs.lstatSync(from).isFile()) nodeFs.copyFileSync(from, to);
  }
}

/** Folders of `base` left empty above `rel` go (deepest first), as a full synth would not make them. */
export function pruneEmpty(base: string, rel: string, fs: FileSystemOps): void {
  for (let d = dirname(rel); d !== '.' && d !== ''; d = dirname(d)) {
    const dir = join(base, d);
    try {
      if (nodeFs.readdirSync(dir).length > 0) return;
    } catch {
      return;
    }
    fs.rmSync(dir, { recursive: true, force: true }); // empty: no file goes with it
  }
}

export function writeAtomically(file: string, content: string, fs: FileSystemOps): void {
  fs.writeFileSync(`${file}.tmp`, content);
  fs.renameSync(`${file}.tmp`, file);
}

/** Files under `base/sub`, relative to `base` with forward slashes, skipping kept folders. */
export function listFiles(base: string, sub: string, kept: readonly string[]): string[] {
  const skip = new Set(kept);
  const out: string[] = [];
  const walk = (rel: string) => {
    let entries: nodeFs.Dirent[];
    try {
      entries = nodeFs.readdirSync(join(base, rel), { withFileTypes: true });
    } catch (err) {
      if (isMissing(err)) return;
      throw err;
    }
    for (const e of entries) {
      const child = rel === '' ? e.name : `${rel}/${e.name}`;
      if (e.isDirectory()) {
        if (!skip.has(child)) walk(child);
      } else out.push(child);
    }
  };
  // lstat: a link named `sub` is an entry of its own, never the folder it points to
  let top: nodeFs.Stats | undefined;
  try {
    top = nodeFs.lstatSync(join(base, sub));
  } catch (err) {
    if (!isMissing(err)) throw err;
  }
  if (top && !top.isDirectory()) return [sub];
  walk(sub);
  return out;
}

export const isMissing = (err: unknown) => ['ENOENT', 'ENOTDIR'].includes((err as NodeJS.ErrnoException).code ?? '');
