import { readFileSync } from 'node:fs';
import { expect, test } from 'vitest';
import { SUPPORTED_VERSIONS } from '../helpers/releases';

// A release added to the registry is documented: docs/releases.md has its row, in registry order.
test('docs/releases.md has one row per supported release, oldest first', () => {
  const page = readFileSync('docs/releases.md', 'utf8');
  const rows = [...page.matchAll(/^\| `(v\d+\.\d+\.\d+)` \|/gm)].map((m) => m[1]);
  expect(rows).toEqual(SUPPORTED_VERSIONS);
});
