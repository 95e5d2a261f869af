import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
// @ts-expect-error: a script of the repository, plain JavaScript without declarations
import { releaseChangelog } from '../../scripts/release-changelog.mjs';

const release = releaseChangelog as (text: string, version: string, date: string) => string;

// #53 item 6: CHANGELOG.md as Keep a Changelog writes it, and a release as `npm version` makes it:
// the notes under [Unreleased] move under the version, the commit is tagged v<version>.
describe('CHANGELOG.md', () => {
  const text = readFileSync('CHANGELOG.md', 'utf8');
  const headings = [...text.matchAll(/^## (.*)$/gm)].map((m) => m[1]!);
  const versions = headings.slice(1).map((h) => /^\[(\d+)\.(\d+)\.(\d+)\](?: - \d{4}-\d{2}-\d{2})?$/.exec(h));

  test('[Unreleased] first, then each release, newest first, as [x.y.z] - date', () => {
    expect(headings[0]).toBe('[Unreleased]');
    expect(versions.every(Boolean), headings.join(', ')).toBe(true);
    const numbers = versions.map((m) => m!.slice(1, 4).map(Number));
    const sorted = [...numbers].sort((a, b) => b[0]! - a[0]! || b[1]! - a[1]! || b[2]! - a[2]!);
    expect(numbers).toEqual(sorted);
  });

  test("package.json's version is the newest release", () => {
    const { version } = JSON.parse(readFileSync('package.json', 'utf8')) as { version: string };
    expect(headings[1]?.startsWith(`[${version}]`)).toBe(true);
  });
});

describe('a release of the notes under [Unreleased]', () => {
  const before = '# Changelog\n\n## [Unreleased]\n\n### Added\n- a thing\n\n## [0.1.0]\n\nThe first.\n';
  test.each([
    ['before an older release', before, '# Changelog\n\n## [Unreleased]\n\n## [0.2.0] - 2026-11-29\n\n### Added\n- a thing\n\n## [0.1.0]\n\nThe first.\n'],
    ['the first release', '# Changelog\n\n## [Unreleased]\n\n- one\n', '# Changelog\n\n## [Unreleased]\n\n## [0.2.0] - 2026-11-29\n\n- one\n'],
  ])('%s', (_what, text, expected) => {
    expect(release(text, '0.2.0', '2026-11-29')).toBe(expected);
  });

  test.each([
    ['nothing unreleased', '# Changelog\n\n## [Unreleased]\n\n## [0.1.0]\n\nThe first.\n', '0.2.0', /nothing under \[Unreleased\]/],
    ['a version released before', before, '0.1.0', /already has a section for 0\.1\.0/],
    ['no [Unreleased]', '# Changelog\n\n## [0.1.0]\n', '0.2.0', /no "## \[Unreleased\]"/],
  ])('refused: %s', (_what, text, version, message) => {
    expect(() => release(text, version, '2026-11-29')).toThrow(message);
  });

  test('npm version runs it before its commit, and tags the commit v<version>', () => {
    const dir = mkdtempSync(join(process.env.CLUSTERSET_TEST_TMPDIR ?? tmpdir(), 'release-'));
    try {
      mkdirSync(join(dir, 'scripts'));
      copyFileSync('scripts/release-changelog.mjs', join(dir, 'scripts/release-changelog.mjs'));
      writeFileSync(join(dir, 'CHANGELOG.md'), before);
      // the project's own step without its synth (there is no compiler here)
      const step = (JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: { version: string } }).scripts.version;
      expect(step).toMatch(/^node scripts\/release-changelog\.mjs && npm run synth && git add CHANGELOG\.md dist$/);
      const scripts = { version: 'node scripts/release-changelog.mjs && git add CHANGELOG.md' };
      writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'x', version: '0.1.0', private: true, scripts }));
      const env = { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@example.com', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@example.com' };
      const run = (cmd: string, ...args: string[]) => execFileSync(cmd, args, { cwd: dir, env, encoding: 'utf8', stdio: 'pipe' });
      run('git', 'init', '-q');
      run('git', 'add', '.');
      run('git', 'commit', '-qm', 'base');
      run('npm', 'version', 'minor');
      expect(run('git', 'tag', '--points-at', 'HEAD').trim()).toBe('v0.2.0');
      expect(run('git', 'show', 'HEAD:CHANGELOG.md')).toMatch(/^## \[Unreleased\]\n\n## \[0\.2\.0\] - \d{4}-\d{2}-\d{2}\n\n### Added\n- a thing\n/m);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
