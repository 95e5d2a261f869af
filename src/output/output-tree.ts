import * as nodeFs from 'node:fs';
import { dirname, join, sep } from 'node:path';
import type { FileSystemOps } from './file-system-ops';

// Operations on the trees of an output transaction (output-transaction.ts): hard links, atomic
// writes and listings, through FileSystemOps so that the kill drills reach every mutation.

/** `to` (absent) becomes a tree of hard links to the files of `from`; copies where links are refused. */
export function linkTree(from: string, to: string, fs: FileSystemOps): void {
  if (!nodeFs.statSync(from).isDirectory()) {
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

function linkFile(from: string, to: string, fs: FileSystemOps): void {
  try {
    fs.linkSync(from, to);
  } catch (err) {
    // a file system without hard links (or at the limit of links of a file)
    if (!['EXDEV', 'EPERM', 'ENOTSUP', 'EMLINK', 'EOPNOTSUPP'].includes((err as NodeJS.ErrnoException).code ?? '')) throw err;
    nodeFs.copyFileSync(from, to);
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
  if (nodeFs.existsSync(join(base, sub)) && !nodeFs.statSync(join(base, sub)).isDirectory()) return [sub];
  walk(sub);
  return out;
}

export const isMissing = (err: unknown) => ['ENOENT', 'ENOTDIR'].includes((err as NodeJS.ErrnoException).code ?? '');
