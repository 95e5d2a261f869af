/**
 * The two tiers of the suite. `npm test` is what a developer runs before every commit: every
 * behaviour once, fast. `npm run test:soak` (CI runs it after `npm test`) sets this variable and
 * runs the exhaustive drills: kill -9 at every step of a commit and all over a run, the packed
 * tarball installed every way the docs show, a table over every release × engine × variant. A
 * test file puts its exhaustive part behind this helper and keeps a representative of each
 * behaviour in `npm test`; the soak tier runs only the files that import this helper (or read
 * the variable themselves: vitest.config.ts). A test of the soak tier alone is registered under
 * `if (SOAK)`: in `npm test` it does not exist rather than being skipped (CI runs it), and its
 * file keeps a fast representative of what it proves.
 */
export const SOAK_VARIABLE = 'CLUSTERSET_SOAK';

/** Whether this run is the soak tier. */
export const SOAK = process.env[SOAK_VARIABLE] === '1';

/**
 * The rows of a table this tier runs: all of them in the soak tier, in `npm test` the ones
 * `representative` picks (at least one, or the table proves nothing in `npm test`).
 */
export function soakRows<T>(rows: readonly T[], representative: (row: T, index: number) => boolean, soak = SOAK): readonly T[] {
  if (soak) return rows;
  const picked = rows.filter(representative);
  if (picked.length === 0) throw new Error('soakRows: no representative row runs in npm test');
  return picked;
}
