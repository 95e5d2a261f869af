// `npm version <patch|minor|major>` runs this as its "version" step (package.json), after it set the
// new version and before it commits and tags `v<version>` (npm's `version` lifecycle): the notes
// under [Unreleased] become the version's section, dated, and [Unreleased] starts empty again.
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const UNRELEASED = '## [Unreleased]\n';

/** CHANGELOG.md's text with [Unreleased] released as `version` on `date` (YYYY-MM-DD). */
export function releaseChangelog(text, version, date) {
  const at = text.indexOf(UNRELEASED);
  if (at < 0) throw new Error('CHANGELOG.md has no "## [Unreleased]" section');
  const next = text.indexOf('\n## [', at + UNRELEASED.length);
  const notes = text.slice(at + UNRELEASED.length, next < 0 ? text.length : next + 1).trim();
  if (notes === '') throw new Error('nothing under [Unreleased] to release');
  if (text.includes(`\n## [${version}]`)) throw new Error(`CHANGELOG.md already has a section for ${version}`);
  const released = `${UNRELEASED}\n## [${version}] - ${date}\n\n${notes}\n`;
  return text.slice(0, at) + released + (next < 0 ? '' : text.slice(next));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const version = process.env.npm_package_version;
  if (!version) throw new Error('run through `npm version`, which sets npm_package_version');
  const path = new URL('../CHANGELOG.md', import.meta.url);
  const date = new Date().toISOString().slice(0, 10);
  writeFileSync(path, releaseChangelog(readFileSync(path, 'utf8'), version, date));
}
