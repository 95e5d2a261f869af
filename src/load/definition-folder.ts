import { closeSync, constants, existsSync, fstatSync, openSync, readSync, realpathSync, statfsSync, statSync, type Stats } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

/**
 * What the compiler reads of a pull request (#37 item 1). A definition, and every file a TypeScript
 * definition imports, is a regular file whose real path is inside the definition's folder; that
 * folder's real path is inside the repository holding it (the nearest folder above with `.git`).
 * Symbolic links that stay inside are followed; one that leaves (into /proc, to a device, to a file
 * CI wrote into the checkout beside clustersets/) is refused before anything is opened, and so are
 * FIFOs (opening one would block the run), sockets, devices, folders and hard links (a file with
 * more than one name: its other name may be anywhere on the file system). A refused file's text is
 * never read, so no diagnostic can show it in a code frame.
 */
export type FolderRead = { readonly ok: true; readonly text: string; readonly real: string } | Refusal;
export interface Refusal {
  readonly ok: false;
  /** an errno error of Node's, or the reason in words */
  readonly reason: unknown;
  readonly hint: string;
}

export interface DefinitionFolder {
  /** as named: the folder of the path given or listed */
  readonly path: string;
  readonly real: string;
}

const LINK_HINT =
  'definitions, the files a TypeScript definition imports and cluster dumps are regular files inside their folder: replace the symbolic link by the file itself';
const KIND_HINT = 'definitions and cluster dumps are regular files: remove this entry from the folder, or rename it so that it is not taken for one';

/** File systems whose files are the kernel's state, not files: their real paths are refused wherever they are mounted. */
const PSEUDO_FILE_SYSTEMS = new Map([
  [0x9fa0, '/proc'],
  [0x62656572, '/sys'],
]);

/**
 * A file of a pull request (a definition, a cluster dump), read under these rules: its text, its
 * real path and its folder, or why it was refused.
 */
export function readSourceFile(
  file: string,
  maxBytes: number,
  /** the folders already checked in this run, by path: a thousand definitions of one folder check it once */
  folders?: Map<string, DefinitionFolder | Refusal>,
): (FolderRead & { readonly ok: true; readonly folder: DefinitionFolder }) | Refusal {
  const path = dirname(resolve(file));
  let folder = folders?.get(path);
  if (!folder) {
    folder = definitionFolder(file);
    folders?.set(path, folder);
  }
  if ('ok' in folder) return folder;
  const read = readInFolder(file, folder, maxBytes);
  return read.ok ? { ...read, folder } : read;
}

/** The folder of `file` (as named), or why no file of it may be read: it is not there, or its real path leaves the repository. */
export function definitionFolder(file: string): DefinitionFolder | Refusal {
  const path = dirname(resolve(file));
  let real: string;
  try {
    real = realpathSync(path);
  } catch (err) {
    return { ok: false, reason: err, hint: 'check the path' };
  }
  const repository = repositoryOf(path);
  if (repository !== undefined) {
    const top = realpathSync(repository);
    if (!inside(real, top) || inside(real, join(top, '.git')))
      return {
        ok: false,
        reason: `its folder "${relative(process.cwd(), path) || '.'}" leaves the repository (a symbolic link)`,
        hint: "definitions are files of the repository: replace the linked folder by the folder's files",
      };
  }
  return { path, real };
}

/** The nearest folder from `path` up that holds `.git`: the repository (a work tree's `.git` may be a file). */
function repositoryOf(path: string): string | undefined {
  for (let dir = path; ; dir = dirname(dir)) {
    if (existsSync(join(dir, '.git'))) return dir;
    if (dirname(dir) === dir) return undefined;
  }
}

/**
 * Reads `file` when its real path is a regular file inside `folder` (a real path), at most
 * `maxBytes` of it. Never opens anything else: the checks come first, and the open itself neither
 * blocks nor follows a link swapped in after them.
 */
export function readInFolder(file: string, folder: DefinitionFolder, maxBytes: number): FolderRead {
  let real: string;
  try {
    real = realpathSync(file);
  } catch (err) {
    return { ok: false, reason: err, hint: (err as NodeJS.ErrnoException).code === 'ELOOP' ? LINK_HINT : 'check the path' };
  }
  const named = relative(process.cwd(), folder.path) || '.';
  if (!inside(real, folder.real)) return { ok: false, reason: `its real path leaves its folder "${named}" (a symbolic link)`, hint: LINK_HINT };
  let fd: number;
  try {
    const pseudo = PSEUDO_FILE_SYSTEMS.get(statfsSync(real).type);
    if (pseudo) return { ok: false, reason: `it is a file of ${pseudo}, the kernel's state`, hint: LINK_HINT };
    const kind = notRegular(statSync(real));
    if (kind) return { ok: false, reason: kind, hint: kind === HARD_LINK ? HARD_LINK_HINT : KIND_HINT };
    fd = openSync(real, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW);
  } catch (err) {
    return { ok: false, reason: err, hint: 'check the permissions of the file' };
  }
  try {
    const stats = fstatSync(fd);
    const swapped = notRegular(stats);
    if (swapped) return { ok: false, reason: swapped, hint: swapped === HARD_LINK ? HARD_LINK_HINT : KIND_HINT };
    if (stats.size > maxBytes)
      return { ok: false, reason: `it is larger than ${maxBytes} bytes`, hint: 'a definition of ten thousand clusters is a few megabytes; check the file' };
    const buffer = Buffer.alloc(stats.size);
    let length = 0;
    for (let n = 1; n > 0 && length < buffer.length; length += n) n = readSync(fd, buffer, length, buffer.length - length, length);
    return { ok: true, text: buffer.toString('utf8', 0, length), real };
  } finally {
    closeSync(fd);
  }
}

const HARD_LINK = 'it is a hard link (the file has other names, which may be outside its folder)';
const HARD_LINK_HINT =
  'definitions, the files a TypeScript definition imports and cluster dumps are files of their own: replace the hard link by a copy of the file';

function notRegular(stats: Stats): string | undefined {
  // a second name of a file anywhere on the file system (a key, another checkout's file): its real
  // path is inside the folder, its text is not the folder's (#48 item 7). git never checks one out.
  if (stats.isFile()) return stats.nlink > 1 ? HARD_LINK : undefined;
  if (stats.isDirectory()) return 'it is a directory';
  if (stats.isFIFO()) return 'it is a FIFO (a named pipe), not a regular file';
  if (stats.isSocket()) return 'it is a socket, not a regular file';
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return 'it is a device, not a regular file';
  return 'it is not a regular file';
}

/** Whether `path` is `folder` or under it (both absolute). */
export const inside = (path: string, folder: string) => path === folder || path.startsWith(folder.endsWith(sep) ? folder : folder + sep);
