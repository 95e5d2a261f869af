import { expect, test } from 'vitest';
import { runCli } from '../helpers/run-cli';

// The committed dist/ is what `npm run synth` writes from clustersets/ (CONTRIBUTING.md: commit
// dist/ with every change of output). In process, from the repository: the same command as
// `clusterset synth --check`, without a process of its own through tsx.
test('dist/ is up to date with clustersets/ (run `npm run synth` and commit dist/ when this fails)', async () => {
  const check = await runCli(['synth', '--check', '--no-index']);
  expect(check.stderr).toBe('');
  expect(check.stdout).toMatch(/^dist is up to date \(\d+ files, \d+ clusters\)\n$/);
  expect(check.status).toBe(0);
});
