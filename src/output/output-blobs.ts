import { execFileSync, spawn } from 'node:child_process';
import { createHash, hash } from 'node:crypto';
import { closeSync, existsSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

/*
 * What the output's files are, without building them (issue #54): each file's git blob id
 * (sha1 of "blob <bytes>\0" and the bytes, as `git hash-object` computes it), shortened to 64
 * bits. manifest.json records the ids of every file a synth wrote; `synth --check` compares them
 * with the files on disk. The output is untrusted, so every file counts: a folder is listed in full
 * (a file added or a link is seen), and a file's id is git's only where git vouches for it: the
 * index's id of a tracked file whose stat data git finds unchanged (`git diff-files` re-reads the
 * racy ones), with no attributes or line-ending conversion that would make the index's bytes differ
 * from the work tree's. Any other file is read and hashed here.
 */

const ID_LENGTH = 16;

export const blobId = (content: string | Buffer): string =>
  // one-shot hash of a string: no Buffer copy, no Hash object (a fleet's synth hashes every file it writes)
  typeof content === 'string'
    ? hash('sha1', `blob ${Buffer.byteLength(content)}\0${content}`).slice(0, ID_LENGTH)
    : createHash('sha1').update(`blob ${content.length}\0`).update(content).digest('hex').slice(0, ID_LENGTH);

/** Not a regular file (a link, a FIFO): never equal to a recorded id. */
const NOT_A_FILE = 'not-a-file';

/**
 * The files under each of `folders` (relative to `out`), each with its blob id: folder → (path
 * relative to the folder → id). A folder that is not there has no files. git lists its ids while
 * the folders are listed here (two cores: the pull-request check waits for the longer of the two).
 */
export async function folderBlobs(out: string, folders: readonly string[]): Promise<Map<string, Map<string, string>>> {
  const fromGit = gitBlobsAsync(out);
  const listed = new Map<string, string[]>();
  const irregular = new Set<string>();
  for (const folder of folders) {
    const files: string[] = [];
    const walk = (rel: string) => {
      let entries;
      try {
        entries = readdirSync(join(out, folder, rel), { withFileTypes: true });
      } catch {
        return;
      }
      for (const e of entries) {
        const path = rel ? `${rel}/${e.name}` : e.name;
        if (e.isDirectory()) walk(path);
        else {
          files.push(path);
          if (!e.isFile()) irregular.add(`${folder}/${path}`);
        }
      }
    };
    walk('');
    listed.set(folder, files);
  }
  const ids = await fromGit;
  const result = new Map<string, Map<string, string>>();
  for (const [folder, files] of listed) {
    const blobs = new Map<string, string>();
    for (const path of files) {
      const full = `${folder}/${path}`;
      blobs.set(path, irregular.has(full) ? NOT_A_FILE : (ids?.get(full) ?? blobId(readFileSync(join(out, folder, path)))));
    }
    result.set(folder, blobs);
  }
  return result;
}

const git = (cwd: string, args: readonly string[]): string =>
  execFileSync('git', args, { cwd, encoding: 'utf8', maxBuffer: 1 << 30, stdio: ['ignore', 'pipe', 'ignore'] });

/** git's output of `args` (undefined when it fails), through a file: git never waits for this thread to read a pipe. */
function gitLater(cwd: string, args: readonly string[]): Promise<string | undefined> {
  const dir = mkdtempSync(join(tmpdir(), 'clusterset-git-'));
  const path = join(dir, 'out');
  return new Promise((settle) => {
    const fd = openSync(path, 'w');
    const finish = (ok: boolean) => {
      try {
        settle(ok ? readFileSync(path, 'utf8') : undefined);
      } catch {
        settle(undefined);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    };
    try {
      const child = spawn('git', args, { cwd, stdio: ['ignore', fd, 'ignore'] });
      child.on('error', () => finish(false));
      child.on('close', (code) => finish(code === 0));
    } catch {
      finish(false);
    } finally {
      closeSync(fd);
    }
  });
}

/** The ids of gitBlobs, git's two listings run side by side and beside the caller. */
async function gitBlobsAsync(out: string): Promise<Map<string, string> | undefined> {
  const dir = resolve(out);
  try {
    if (!vouches(dir)) return undefined;
    const [changed, staged] = await Promise.all([gitLater(dir, DIFF_FILES), gitLater(dir, LS_FILES)]);
    return changed === undefined || staged === undefined ? undefined : indexIds(changed, staged);
  } catch {
    return undefined;
  }
}

/**
 * The blob ids git's index holds for the output's tracked files whose work-tree bytes it finds
 * unchanged (paths relative to `out`); undefined outside a repository, or where git could convert
 * bytes between the work tree and the index (attributes, core.autocrlf, core.eol).
 */
export function gitBlobs(out: string): Map<string, string> | undefined {
  const dir = resolve(out);
  try {
    return vouches(dir) ? indexIds(git(dir, DIFF_FILES), git(dir, LS_FILES)) : undefined;
  } catch {
    return undefined;
  }
}

const DIFF_FILES = ['diff-files', '--name-only', '-z', '--relative', '--', '.'];
const LS_FILES = ['ls-files', '-s', '-z', '--', '.'];

/** Whether `dir` is in a repository whose index ids are its work tree's bytes (no conversion). */
function vouches(dir: string): boolean {
  if (!existsSync(dir)) return false;
  const [gitDir, top] = git(dir, ['rev-parse', '--absolute-git-dir', '--show-toplevel']).trim().split('\n');
  return Boolean(gitDir && top && !converts(dir, gitDir, top));
}

/** `ls-files -s` lines (`<mode> <id> <stage>\t<path>`, relative to the working directory) of regular files at stage 0, less the changed. */
function indexIds(diffFiles: string, lsFiles: string): Map<string, string> {
  const changed = new Set(diffFiles.split('\0'));
  const ids = new Map<string, string>();
  for (const line of lsFiles.split('\0')) {
    const tab = line.indexOf('\t');
    if (tab !== 49 || !(line.startsWith('100644 ') || line.startsWith('100755 ')) || !line.endsWith(' 0', tab)) continue;
    const path = line.slice(tab + 1);
    if (!changed.has(path)) ids.set(path, line.slice(7, 7 + ID_LENGTH));
  }
  return ids;
}

/** Whether git may convert bytes on checkout: any attributes file, or a line-ending setting. */
function converts(dir: string, gitDir: string, top: string): boolean {
  const home = process.env.XDG_CONFIG_HOME ?? join(process.env.HOME ?? '/nonexistent', '.config');
  if (existsSync(join(gitDir, 'info/attributes')) || existsSync(join(home, 'git/attributes'))) return true;
  let settings = '';
  try {
    settings = git(dir, ['config', '-z', '--get-regexp', '^core\\.(autocrlf|eol|attributesfile)$']);
  } catch {
    // exit 1: none set
  }
  if (settings.split('\0').some((line) => line !== '' && !/^core\.autocrlf\nfalse$/i.test(line))) return true;
  // attribute files: only those that name no converting attribute (init's `dist/** linguist-generated=true` is one)
  const files = git(top, ['ls-files', '-z', '--', ':(glob)**/.gitattributes']).split('\0').filter(Boolean);
  return files.some((f) => {
    let text: string;
    try {
      text = readFileSync(join(top, f), 'utf8');
    } catch {
      return true;
    }
    return text.split('\n').some((line) => {
      const t = line.trim();
      // a macro ([attr]) may stand for any of them; a pattern that holds such a word is taken for one too
      return t !== '' && !t.startsWith('#') && (t.startsWith('[attr]') || CONVERTING.test(t));
    });
  });
}

/** The attributes under which the work tree's bytes may differ from the index's blob (gitattributes(5)). */
const CONVERTING = /\b(text|eol|crlf|filter|working-tree-encoding|ident)\b/;
