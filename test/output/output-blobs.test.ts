import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { blobId, folderBlobs, gitBlobs } from '../../src/output/output-blobs';

// The pull-request check names a bundle's files by git's blob ids where git vouches for the bytes
// (test/pipeline/pr-check-index.test.ts compares that check with a full one).
describe("git's blob ids stand in for reading the output's files only where git vouches for the bytes", () => {
  const work = () => {
    const dir = mkdtempSync(join(tmpdir(), 'git-blobs-'));
    const run = (...args: string[]) => execFileSync('git', ['-c', 'user.email=t@example.com', '-c', 'user.name=t', ...args], { cwd: dir, stdio: 'pipe' });
    mkdirSync(join(dir, 'dist/a'), { recursive: true });
    writeFileSync(join(dir, 'dist/a/one.yaml'), 'one: 1\n');
    writeFileSync(join(dir, 'dist/a/two.yaml'), 'two: 2\n');
    run('init', '-q');
    run('add', '.');
    run('commit', '-qm', 'base');
    return { dir, run };
  };

  test('a committed, unchanged file: the index id, equal to the id of its bytes', async () => {
    const { dir } = work();
    try {
      const ids = gitBlobs(join(dir, 'dist'))!;
      expect(ids.get('a/one.yaml')).toBe(blobId('one: 1\n'));
      expect(ids.get('a/two.yaml')).toBe(blobId('two: 2\n'));
      expect((await folderBlobs(join(dir, 'dist'), ['a'])).get('a')).toEqual(
        new Map([
          ['one.yaml', blobId('one: 1\n')],
          ['two.yaml', blobId('two: 2\n')],
        ]),
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('a file edited after checkout, or added, is hashed from its bytes', async () => {
    const { dir } = work();
    try {
      writeFileSync(join(dir, 'dist/a/one.yaml'), 'one: 11\n');
      writeFileSync(join(dir, 'dist/a/three.yaml'), 'three: 3\n');
      expect(gitBlobs(join(dir, 'dist'))!.has('a/one.yaml')).toBe(false);
      expect((await folderBlobs(join(dir, 'dist'), ['a'])).get('a')).toEqual(
        new Map([
          ['one.yaml', blobId('one: 11\n')],
          ['three.yaml', blobId('three: 3\n')],
          ['two.yaml', blobId('two: 2\n')],
        ]),
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test.each([
    [
      'a .gitattributes file',
      (dir: string, run: (...a: string[]) => unknown) => (writeFileSync(join(dir, '.gitattributes'), '* text eol=crlf\n'), run('add', '.gitattributes')),
    ],
    ['core.autocrlf', (_dir: string, run: (...a: string[]) => unknown) => run('config', 'core.autocrlf', 'true')],
    ['core.eol', (_dir: string, run: (...a: string[]) => unknown) => run('config', 'core.eol', 'crlf')],
    [
      'a .gitattributes file with a macro',
      (dir: string, run: (...a: string[]) => unknown) => (
        writeFileSync(join(dir, '.gitattributes'), '[attr]lf -diff\n*.yaml lf\n'),
        run('add', '.gitattributes')
      ),
    ],
  ])('%s: git may convert bytes, so no id of its is used', (_what, setUp) => {
    const { dir, run } = work();
    try {
      expect(gitBlobs(join(dir, 'dist'))).toBeDefined();
      setUp(dir, run);
      expect(gitBlobs(join(dir, 'dist'))).toBeUndefined();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("init's .gitattributes (dist/** linguist-generated=true) converts nothing: git's ids stay", () => {
    const { dir, run } = work();
    try {
      writeFileSync(join(dir, '.gitattributes'), '# generated\ndist/** linguist-generated=true\n');
      run('add', '.gitattributes');
      expect(gitBlobs(join(dir, 'dist'))!.get('a/one.yaml')).toBe(blobId('one: 1\n'));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
