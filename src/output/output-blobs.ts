import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
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

export const blobId = (content: string | Buffer): string => {
  const bytes = typeof content === 'string' ? Buffer.from(content) : content;
  return createHash('sha1').update(`blob ${bytes.length}\0`).update(bytes).digest('hex').slice(0, ID_LENGTH);
};

/** Not a regular file (a link, a FIFO): never equal to a recorded id. */
const NOT_A_FILE = 'not-a-file';

/**
 * The files under each of `folders` (relative to `out`), each with its blob id: folder → (path
 * relative to the folder → id). A folder that is not there has no files.
 */
export function folderBlobs(out: string, folders: readonly string[]): Map<string, Map<string, string>> {
  const fromGit = gitBlobs(out);
  const result = new Map<string, Map<string, string>>();
  for (const folder of folders) {
    const files = new Map<string, string>();
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
        else if (!e.isFile()) files.set(path, NOT_A_FILE);
        else files.set(path, fromGit?.get(`${folder}/${path}`) ?? blobId(readFileSync(join(out, folder, path))));
      }
    };
    walk('');
    result.set(folder, files);
  }
  return result;
}

const git = (cwd: string, args: readonly string[]): string =>
  execFileSync('git', args, { cwd, encoding: 'utf8', maxBuffer: 1 << 30, stdio: ['ignore', 'pipe', 'ignore'] });

/**
 * The blob ids git's index holds for the output's tracked files whose work-tree bytes it finds
 * unchanged (paths relative to `out`); undefined outside a repository, or where git could convert
 * bytes between the work tree and the index (attributes, core.autocrlf, core.eol).
 */
export function gitBlobs(out: string): Map<string, string> | undefined {
  const dir = resolve(out);
  if (!existsSync(dir)) return undefined;
  try {
    const [gitDir, top] = git(dir, ['rev-parse', '--absolute-git-dir', '--show-toplevel']).trim().split('\n');
    if (!gitDir || !top || converts(dir, gitDir, top)) return undefined;
    const changed = new Set(git(dir, ['diff-files', '--name-only', '-z', '--relative', '--', '.']).split('\0'));
    const ids = new Map<string, string>();
    // `<mode> <id> <stage>\t<path>`, paths relative to the working directory; a regular file at stage 0 only
    for (const line of git(dir, ['ls-files', '-s', '-z', '--', '.']).split('\0')) {
      const tab = line.indexOf('\t');
      if (tab !== 49 || !(line.startsWith('100644 ') || line.startsWith('100755 ')) || !line.endsWith(' 0', tab)) continue;
      const path = line.slice(tab + 1);
      if (!changed.has(path)) ids.set(path, line.slice(7, 7 + ID_LENGTH));
    }
    return ids;
  } catch {
    return undefined;
  }
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
